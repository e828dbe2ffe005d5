import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** `npm run bench -- --plan [mode]`: the phases a run would go through and their expected seconds, nothing run. */
function plan(...args: string[]): { phases: Map<string, number>; total: number } {
  const output = execFileSync(process.execPath, ['dist/bench/src/main.js', '--plan', ...args], { cwd: root, encoding: 'utf8' });
  const rows = [...output.matchAll(/^ {2}(\S.*?)\s+(\d+) s\s+(\d+) s$/gm)].map((m) => [m[1]!, Number(m[2])] as const);
  const phases = new Map(rows.filter(([name]) => name !== 'total'));
  const total = rows.find(([name]) => name === 'total')?.[1] ?? NaN;
  return { phases, total };
}

describe('benchmark plan', () => {
  it('the default run: the comparison and a reduced scale pass, within ten minutes on the host of the run of record', () => {
    const { phases, total } = plan();
    expect([...phases.keys()]).toEqual(expect.arrayContaining(['ES256 rounds', 'RS256 rounds', 'p99 at half peak', 'client assertions', 'clients rounds', 'cold start', 'sweep under token traffic']));
    for (const fullOnly of ['CPU profile', 'admin lists', 'clients past the bound']) expect(phases.has(fullOnly), fullOnly).toBe(false);
    expect(phases.has('generate 10000 clients')).toBe(true);
    expect(total).toBe([...phases.values()].reduce((a, b) => a + b, 0));
    expect(total).toBeLessThanOrEqual(600);
  });

  it('--quick: Gatehouse against the ceiling only, within two minutes; --full: every scenario at full size', () => {
    const quick = plan('--quick');
    expect([...quick.phases.keys()]).toEqual(['build and provision', 'ES256 rounds (Gatehouse, ceiling)']);
    expect(quick.total).toBeLessThanOrEqual(120);
    const full = plan('--full');
    for (const phase of ['CPU profile', 'admin lists', 'generate 100000 clients', 'clients past the bound', 'generate 10000000 invitations']) {
      expect(full.phases.has(phase), phase).toBe(true);
    }
  });
});
