// The benchmark's machinery: server processes on core 1, load from core 0 (provisioning in
// provision.ts, paced windows and profiles in server-windows.ts).
import 'reflect-metadata';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import pg from 'pg';
import { freePort } from '@gatehouse/database';
import { settings } from './plan.js';
import type { Algorithm, ReadyMessage } from './protocol.js';

export type { Provisioned } from './provision.js';
export { type RunSettings, settings, smoke } from './plan.js';

export type ServerName = 'gatehouse' | 'oidc-provider' | 'ceiling';

export interface ServerResult {
  server: ServerName;
  alg: Algorithm;
  tokensPerSec: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
}

export interface Target {
  name: ServerName;
  script: string;
  tokenPath: string;
  jwksPath: string;
  body: string;
  env: Record<string, string>;
  /** Node flags the server always starts with (Gatehouse: those of the image's ENTRYPOINT). */
  nodeArgs?: string[];
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  url: string;
  logFile: string;
}

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../../..');
/**
 * For autocannon runs of a fixed number of requests: it ends a run at its next sample, and samples
 * are a second apart by default — a smoke run of 40 requests took 1 s whatever the server did.
 * With this the run ends within 50 ms of its last answer (`requests.average` is then per 50 ms: use
 * `requests.total / duration` for a rate).
 */
export const PROMPT_END = { sampleInt: 50 } as const;

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const cores = availableParallelism();
export const pin = cores >= 2 && hasTaskset();
/**
 * Everything a run writes to the temporary directory (server logs, data directories of the server
 * processes, which inherit TMPDIR) lands in one folder, removed when the run ends, failed or not.
 */
const runDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
process.env.TMPDIR = runDir;
process.once('exit', () => rmSync(runDir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
export const logDir = mkdtempSync(join(runDir, 'logs-'));
export const failures: string[] = [];

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}


export function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL settings the scale figures depend on (docs/operations.md, "PostgreSQL for millions of rows"). */
export async function postgresSettings(): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; value: string }>(
      `SELECT name, current_setting(name) AS value FROM pg_settings
        WHERE name IN ('server_version', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  } finally {
    await client.end();
  }
}

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    nproc: cores,
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    node: process.version,
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
    pinned: pin ? 'load generator on core 0, each server on core 1' : 'not pinned (taskset missing or 1 core)',
  };
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all threads) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** Starts a server script in its own process on core 1 and waits for its ready message. */
export async function startServer(target: Target, nodeArgs: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const logFile = join(logDir, `${target.name}-${port}.log`);
  const out = openSync(logFile, 'a');
  const script = join(here, target.script);
  const command = pin ? 'taskset' : process.execPath;
  const args = [...(pin ? ['-c', '1', process.execPath] : []), ...(target.nodeArgs ?? []), ...nodeArgs, script];
  const child = spawn(command, args, {
    env: { ...process.env, ...target.env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', out, out, 'ipc'],
  });
  closeSync(out);
  const pid = await new Promise<number>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${target.name} did not start within 60 s (log: ${logFile})`)), 60_000);
    child.once('message', (message: ReadyMessage) => {
      clearTimeout(timer);
      resolveReady(message.pid);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${target.name} exited with ${code} before it was ready:\n${tail(logFile)}`));
    });
  });
  return { child, pid, url: `http://127.0.0.1:${port}`, logFile };
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
}

export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise<void>((resolveExit) => server.child.once('exit', () => resolveExit()));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** One token request by hand, verified with jose against the server's own JWKS. */
export async function verifyOneToken(target: Target, server: RunningServer, alg: Algorithm): Promise<void> {
  const response = await fetch(server.url + target.tokenPath, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: target.body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${target.name} ${alg}: token request answered ${response.status}: ${text.slice(0, 300)}`);
  const token = (JSON.parse(text) as { access_token?: string }).access_token;
  if (!token) throw new Error(`${target.name} ${alg}: no access_token in ${text.slice(0, 300)}`);
  const header = decodeProtectedHeader(token);
  if (header.alg !== alg) throw new Error(`${target.name}: token signed with ${header.alg}, expected ${alg}`);
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(server.url + target.jwksPath)), { algorithms: [alg] });
  if (!payload.aud || !payload.exp || !payload.jti) throw new Error(`${target.name}: token lacks aud/exp/jti: ${JSON.stringify(payload)}`);
}

export async function load(target: Target, server: RunningServer, seconds: number, overallRate?: number): Promise<AutocannonResult> {
  const result = await autocannon({
    url: server.url + target.tokenPath,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: target.body,
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
    ...(overallRate ? { overallRate } : {}),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0 || result['2xx'] === 0) {
    failures.push(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ${result['2xx']} 2xx`);
  }
  return result;
}

/** The number given as `--<name>=<n>` on the command line, else `fallback`. */
export const option = (name: string, fallback: number): number => Number(textOption(name) ?? fallback);

/** The text of `--<name>=<text>` on the command line, or undefined. */
export function textOption(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The middle value (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function summarize(target: Target, alg: Algorithm, result: AutocannonResult, rss: number): ServerResult {
  return {
    server: target.name,
    alg,
    tokensPerSec: round(result['2xx'] / result.duration, 0),
    p50Ms: round(result.latency.p50, 2),
    p99Ms: round(result.latency.p99, 2),
    rssMb: rss,
  };
}

export interface Measurement {
  result: ServerResult;
  rssAtReadyMb: number;
  rssAfterWarmupMb: number;
  cpuUsPerToken: number;
}

/** A fresh server process: one token verified, warm-up, then a measured run at full speed. */
export async function measure(target: Target, alg: Algorithm): Promise<Measurement> {
  const server = await startServer(target);
  try {
    const rssAtReadyMb = rssMb(server.pid);
    await verifyOneToken(target, server, alg);
    await load(target, server, settings.warmupSeconds);
    const rssAfterWarmupMb = rssMb(server.pid);
    const cpuBefore = cpuSeconds(server.pid);
    const run = await load(target, server, settings.durationSeconds);
    const cpuUsPerToken = round(((cpuSeconds(server.pid) - cpuBefore) * 1e6) / Math.max(1, run['2xx']), 0);
    return { result: summarize(target, alg, run, rssMb(server.pid)), rssAtReadyMb, rssAfterWarmupMb, cpuUsPerToken };
  } finally {
    await stopServer(server);
  }
}

/** The round with the median tokens/s (its latencies and RSS come with it) and the median CPU per token. */
export function medianMeasurement(rounds: Measurement[]): Measurement {
  const byRate = [...rounds].sort((a, b) => a.result.tokensPerSec - b.result.tokensPerSec);
  const cpu = rounds.map((m) => m.cpuUsPerToken).sort((a, b) => a - b);
  return { ...byRate[Math.floor(byRate.length / 2)]!, cpuUsPerToken: cpu[Math.floor(cpu.length / 2)]! };
}

export function printTable(results: ServerResult[]): void {
  const header = ['server', 'alg', 'tokens/s', 'p50 ms', 'p99 ms', 'RSS MB'];
  const rows = results.map((r) => [r.server, r.alg, String(r.tokensPerSec), String(r.p50Ms), String(r.p99Ms), String(r.rssMb)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
