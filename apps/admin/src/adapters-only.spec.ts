import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** What only a use case does: open the database, run a transaction, write an audit event. */
const USE_CASE_MARKS = [/\bInjectDataSource\b/, /\bDataSource\b/, /\.transaction\(/, /\.record\(/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * The admin app is an adapter (STYLE.md): every change it makes goes through a use case in libs,
 * so that the REST API and the console call exactly the same code with the same audit.
 */
describe('apps/admin holds adapters only', () => {
  it('no file of the admin app opens the database, runs a transaction or writes audit events', () => {
    const root = import.meta.dirname;
    const offenders = sources(root).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return USE_CASE_MARKS.filter((mark) => mark.test(text)).map((mark) => `${relative(root, file)}: ${mark.source}`);
    });
    expect(offenders).toEqual([]);
  });
});
