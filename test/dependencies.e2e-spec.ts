import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Runtime dependencies that no source file imports by name, and why they are needed anyway. */
const LOADED_BY_OTHERS: Record<string, string> = {
  rxjs: 'a peer dependency of @nestjs/core and @nestjs/common',
  'class-transformer': "loaded by Nest's ValidationPipe (transform)",
  'pino-http': 'a peer dependency of nestjs-pino',
  otpauth: "staff TOTP for the operators' console (DESIGN §7)",
  qrcode: "the TOTP enrolment QR code of the operators' console (DESIGN §7)",
  '@simplewebauthn/server': "staff passkeys for the operators' console (DESIGN §7)",
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

/** Every runtime dependency is used: nothing ships that nobody imports (issue: @nestjs/config, @nestjs/terminus). */
describe('package.json dependencies', () => {
  it('are each imported by the code that runs, or named here with the reason', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const code = [...sources('apps'), ...sources('libs'), ...sources('migrations')].join('\n');
    const unused = Object.keys(pkg.dependencies).filter((name) => {
      if (LOADED_BY_OTHERS[name]) return false;
      const quoted = name.replace(/[/.]/g, '\\$&');
      return !new RegExp(`(from |import\\(?|require\\()\\s*'${quoted}(/[^']*)?'`).test(code);
    });
    expect(unused).toEqual([]);
  });
});
