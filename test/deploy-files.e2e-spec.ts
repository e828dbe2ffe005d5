import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../apps/cli/src/command-table.js';
import { REPO, readCompose, readImage } from './support/compose-topology.js';

const read = (file: string) => readFileSync(join(REPO, file), 'utf8');

/** DESIGN §10 as the files state it (CI also runs `docker-compose config -q` and a Dockerfile linter). */
describe('deployment files', () => {
  it('the Dockerfile: multi-stage on Node 24 slim, production dependencies only, non-root, health-checked, role by command', () => {
    const dockerfile = read('Dockerfile');
    const stages = dockerfile.match(/^FROM .*$/gm)!;
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.at(-1)).toBe('FROM node:24-bookworm-slim');
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK .*deploy\/healthcheck\.mjs/m);
    expect(read('deploy/healthcheck.mjs')).toContain('/health/ready');
    expect(readImage().entrypoint).toEqual(['node', '--max-semi-space-size=16', 'dist/apps/cli/src/main.js']);
    expect(readImage().env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    expect(finalStage).toMatch(/^CMD \["start"\]$/m);
  });

  it('npm start, npm run demo and npm run cli run Node with the image\'s flags: a replica\'s young generation never follows the host\'s memory', () => {
    const flags = readImage().entrypoint.slice(1, -1);
    expect(flags).toContain('--max-semi-space-size=16');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'demo', 'cli']) expect(scripts[name], name).toContain(`node ${flags.join(' ')} dist/apps/cli/src/main.js`);
  });

  it('docker-compose.yml: each Gatehouse service runs a CLI command; every interpolated variable is in .env.example', () => {
    const example = read('.env.example');
    const variables = [...read('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
    for (const name of new Set(variables)) expect(example, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    const compose = readCompose({ POSTGRES_PASSWORD: 'p', SECRET_PEPPER: 'k', KEY_ENCRYPTION_KEY: 'k' });
    const roles = Object.entries(compose.services).filter(([, service]) => service.image === 'gatehouse:local');
    expect(roles.map(([name]) => name).sort()).toEqual(['admin', 'identity', 'migrate', 'worker']);
    for (const [name, service] of roles) expect(Object.keys(COMMANDS), name).toContain(service.command![0]);
    expect(compose.services.postgres!.image).toMatch(/^postgres:16/);
  });

  it('the configuration table of docs/configuration.md names every variable the configuration reads', () => {
    const readme = read('docs/configuration.md');
    const names = [...read('libs/config/src/load-config.ts').matchAll(/read\('([A-Z0-9_]+)'\)/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const name of new Set(names)) expect(readme, name).toContain(`\`${name}\``);
  });
});
