import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const latest = resolve(root, 'bench/results/latest.json');

function mtimeOf(file: string): number | null {
  return existsSync(file) ? statSync(file).mtimeMs : null;
}

/** `npm run bench -- --smoke` end to end: every server answers 200s, the report has its shape. */
describe('benchmark smoke mode', () => {
  it('runs the whole pipeline with short runs, exits 0 and writes smoke.json only', async () => {
    const latestBefore = mtimeOf(latest);
    const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-tmp-'));
    // 30 s more than before the last-use phase, which starts Gatehouse twice (tracking on, then off).
    const outcome = await new Promise<{ code: number; output: string }>((done) => {
      execFile(
        process.execPath,
        ['dist/bench/src/main.js', '--smoke'],
        { cwd: root, timeout: 200_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, TMPDIR: scratch } },
        (error, stdout, stderr) => done({ code: error ? ((error.code as number | undefined) ?? 1) : 0, output: `${stdout}\n${stderr}` }),
      );
    });
    expect(outcome.code, outcome.output).toBe(0);
    expect(mtimeOf(latest)).toBe(latestBefore);
    expect(readdirSync(scratch), 'the bench leaves nothing in the temporary directory').toEqual([]);
    rmSync(scratch, { recursive: true });

    const report = JSON.parse(readFileSync(resolve(root, 'bench/results/smoke.json'), 'utf8'));
    expect(report).toMatchObject({
      date: expect.any(String),
      machine: { nproc: expect.any(Number), cpuModel: expect.any(String), node: process.version },
      p99AtHalfPeakMs: expect.any(Number),
    });
    expect(report.failures).toEqual([]);
    // The phases --plan lists are the ones the run times (their seconds calibrate the plan).
    expect(report.mode).toBe('smoke');
    expect(Object.keys(report.phaseSeconds)).toEqual([
      'ES256 rounds',
      'RS256 rounds',
      'p99 at half peak',
      'CPU profile',
      'client assertions',
      'federated assertions and source ranges',
      'invitation sweep',
      'outbox',
      'events out',
      'scale',
    ]);
    expect(Object.keys(report.scaleDetails.timings)).toEqual(
      expect.arrayContaining(['clients rounds', 'curve points', 'cold start', 'admin lists', 'clients past the bound', 'sweep under token traffic']),
    );
    // Last-use tracking on against off, the same server in the same run (target ≥ 0.97×).
    expect(report.lastUse).toMatchObject({ onTokensPerSec: expect.any(Number), offTokensPerSec: expect.any(Number), ratio: expect.any(Number) });
    expect(report.results).toHaveLength(6);
    for (const server of ['gatehouse', 'oidc-provider', 'ceiling']) {
      for (const alg of ['ES256', 'RS256']) {
        const row = report.results.find((r: { server: string; alg: string }) => r.server === server && r.alg === alg);
        expect(row, `${server} ${alg}`).toMatchObject({
          tokensPerSec: expect.any(Number),
          p50Ms: expect.any(Number),
          p99Ms: expect.any(Number),
          rssMb: expect.any(Number),
        });
        expect(row.tokensPerSec).toBeGreaterThan(0);
        expect(row.rssMb).toBeGreaterThan(0);
      }
    }
    for (const alg of ['ES256', 'RS256']) {
      expect(report.ratios[alg]).toEqual({ vsOidcProvider: expect.any(Number), vsCeiling: expect.any(Number) });
      expect(report.ratiosByCpu[alg]).toEqual({ vsOidcProvider: expect.any(Number), vsCeiling: expect.any(Number) });
      expect(report.cpuUsPerToken[`gatehouse ${alg}`]).toBeGreaterThan(0);
    }
    // Client assertions against secrets on the same server (target: ≥ 0.5× the secret rate).
    expect(report.assertions).toEqual({
      secretTokensPerSec: expect.any(Number),
      assertionTokensPerSec: expect.any(Number),
      ratio: expect.any(Number),
      cpuUsPerTokenSecret: expect.any(Number),
      cpuUsPerTokenAssertion: expect.any(Number),
      ratioByCpu: expect.any(Number),
      byAlgorithm: { PS256: expect.any(Object), ES256: expect.any(Object) },
    });
    expect(report.assertions.assertionTokensPerSec).toBe(report.assertions.byAlgorithm.PS256.tokensPerSec);
    for (const run of Object.values<Record<string, number>>(report.assertions.byAlgorithm)) {
      expect(Object.keys(run).sort()).toEqual(['cpuUsPerToken', 'ratio', 'ratioByCpu', 'tokensPerSec']);
      expect(run.tokensPerSec).toBeGreaterThan(0);
    }
    // Federated assertions (an external issuer's token, its keys cached) against secrets on one server:
    // the issuer is asked once for its discovery document and once for its keys, whatever the load.
    expect(Object.keys(report.federated).sort()).toEqual(
      ['cpuUsPerTokenFederated', 'cpuUsPerTokenSecret', 'federatedTokensPerSec', 'issuerRequests', 'ratio', 'ratioByCpu', 'secretTokensPerSec'],
    );
    expect(report.federated.federatedTokensPerSec).toBeGreaterThan(0);
    expect(report.federated.issuerRequests).toBe(2);
    // 50 allowed source ranges on the client against none, same server (target: ≥ 0.97×).
    expect(report.sourceRanges).toEqual({
      ranges: 50,
      noneTokensPerSec: expect.any(Number),
      rangesTokensPerSec: expect.any(Number),
      cpuUsPerTokenNone: expect.any(Number),
      cpuUsPerTokenRanges: expect.any(Number),
      ratio: expect.any(Number),
      ratioByCpu: expect.any(Number),
    });
    expect(report.sourceRanges.rangesTokensPerSec).toBeGreaterThan(0);
    // Measured when the invitation sweep and the mail outbox exist, `null` until then.
    for (const [field, keys] of [
      ['sweep', ['rows', 'overdue', 'seconds']],
      ['outbox', ['emails', 'perSec', 'exactlyOnce']],
    ] as const) {
      if (report[field] !== null) expect(Object.keys(report[field]).sort()).toEqual([...keys].sort());
    }
    // The scale scenarios at their smallest (1,000 and 3,000 clients), in the shape the full run reports.
    const number = expect.any(Number);
    expect(report.scale).toEqual({
      clients100k: { ratio: number, rssMb: number },
      clients1m: { rssMb: number, rssGrowthMb: number, coldMissP99Ms: number },
      coldStart: { firstTokenMs: number, p99First10sMs: number },
      admin: {
        usersSearchP99Ms: number,
        auditFilterP99Ms: number,
        awaitingScopesP99Ms: number,
        lastPageVsFirst: number,
        consolePagesP95Ms: number,
      },
      sweep10m: { seconds: number, tokenP99Ms: number },
      plot: expect.stringMatching(/scale-cost-curve\.png$/),
    });
    expect(report.scale.clients100k.ratio).toBeGreaterThan(0);
    // Events out (§13): the three figures against their targets, what a delivery cost, each delivery once and in order.
    const cost = { processCpuMs: number, databaseCpuMs: number, statements: number, statementsByKind: expect.any(Object) };
    expect(report.eventsOut).toMatchObject({
      writes: 200,
      writeRatio: number,
      writeCpuRatio: number,
      writeCost: { baseline: cost, withEvents: cost },
      deliveries: 400,
      deliveredPerSec: number,
      deliveryCost: cost,
      tokenRatio: number,
      exactlyOnce: true,
      inOrder: true,
    });
    expect(report.eventsOut.deliveryCost.statements).toBeLessThan(1); // batched: no statement per delivery
    expect(report.scaleDetails.checks).toHaveLength(5);
    // The console's Users, Clients and Audit pages, signed in as a person (operator invite, password, TOTP).
    expect(report.scaleDetails.consolePages.map((f: { status: number }) => f.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // The generator's own lateness is part of each request's latency, so its p99 cannot exceed the latency's.
    const { sweep } = report.scaleDetails;
    expect(sweep.sendLagP99Ms).toBeGreaterThanOrEqual(0);
    expect(sweep.sendLagP99Ms).toBeLessThanOrEqual(sweep.tokenP99Ms);
    expect(sweep.sendLagP99BySecondMs.length).toBe(sweep.p99BySecondMs.length);
    // Of that lateness, the requests that had a connection free when due (the generator's own) and the count that did not.
    expect(sweep.ownLagP99Ms).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(sweep.waitedForConnection) && sweep.waitedForConnection >= 0).toBe(true);
    // Each latency counted from the write (where a connection was free) is at most the one counted from the due time.
    expect(sweep.tokenP99FromSendMs).toBeGreaterThan(0);
    expect(sweep.tokenP99FromSendMs).toBeLessThanOrEqual(sweep.tokenP99Ms);
    expect(sweep.p99FromSendBySecondMs.length).toBe(sweep.p99BySecondMs.length);
    // How the generator's sending thread was scheduled (real-time only with --realtime-generator).
    expect(sweep.generatorPolicy).toBe('SCHED_OTHER');
    expect(report.scaleDetails.curve.map((p: { clients: number }) => p.clients).sort((a: number, b: number) => a - b)).toEqual([1, 1_000, 3_000]);
  }, 210_000);
});
