import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AssertionFigures, measureAssertions } from './assertions.js';
import { printProfileSummary, summarizeCpuProfile } from './cpu-profile.js';
import { type Target, failures, logDir } from './harness.js';
import type { Provisioned } from './provision.js';

/**
 * Client assertions against secrets on Gatehouse, `rounds` times (each on a fresh server); with
 * `--profile`, the server runs under `--cpu-prof` and its top frames over both phases are printed.
 */
export async function assertionExperiment(provisioned: Provisioned, all: Target[], rounds: number): Promise<number> {
  const gatehouse = all.find((t) => t.name === 'gatehouse')!;
  const profile = process.argv.includes('--profile');
  const dir = join(logDir, 'assertion-profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const results: AssertionFigures[] = [];
  for (let i = 0; i < (profile ? 1 : rounds); i++) {
    const name = `assertions-${i}.cpuprofile`;
    const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`] : [];
    results.push(
      await measureAssertions(gatehouse, provisioned.certificates, provisioned.clientId, gatehouse.body, args),
    );
    const { windows, ...figures } = results[i]!;
    console.log(`round ${i + 1}:`, figures);
    if (!profile || !windows) continue;
    for (const phase of ['secret', 'PS256', 'ES256'] as const) {
      const perToken = phase === 'secret' ? figures.cpuUsPerTokenSecret : figures.byAlgorithm[phase].cpuUsPerToken;
      console.log(`\n${phase} (µs per token = share × ${perToken}):`);
      printProfileSummary(summarizeCpuProfile(join(dir, name), 40, windows[phase]));
    }
  }
  return failures.length > 0 ? 1 : 0;
}
