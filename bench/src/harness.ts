import { freePort } from '@gatehouse/database';
// The benchmark's machinery: server processes on core 1, load from core 0, provisioning, profiling.
import 'reflect-metadata';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientCertificateService, ClientService } from '@gatehouse/clients';
import { certificatePem, selfSignedCertificate } from '@gatehouse/crypto';
import type { AppConfig } from '@gatehouse/config';
import { BootstrapService } from '@gatehouse/provisioning';
import { migrateDatabase } from '@gatehouse/schema';
import { TenantService } from '@gatehouse/tenants';
import { SigningKeyService } from '@gatehouse/tokens';
import { createProvisioningContext } from '../../apps/cli/src/provisioning.context.js';
import { benchConfig } from './bench-config.js';
import type { PacedResult, pacedLoad } from './paced-load.js';
import { type ProfileSummary, type ProfileWindow, monotonicMicros, summarizeCpuProfile } from './cpu-profile.js';
import { API_IDENTIFIER, type Algorithm, type ReadyMessage, SCOPE_VALUE } from './protocol.js';

export type ServerName = 'gatehouse' | 'oidc-provider' | 'ceiling';

export interface RunSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Each server is measured this many times per algorithm, in alternation; figures are medians. */
  rounds: number;
}

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
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  url: string;
  logFile: string;
}

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../../..');
export const smoke = process.argv.includes('--smoke');
export const settings: RunSettings = smoke
  ? { connections: 10, warmupSeconds: 1, durationSeconds: 1, rounds: 1 }
  : { connections: 20, warmupSeconds: 3, durationSeconds: 10, rounds: 3 };
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
const logDir = mkdtempSync(join(runDir, 'logs-'));
export const failures: string[] = [];

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}


function databaseUrl(name: string): string {
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
  const args = [...(pin ? ['-c', '1', process.execPath] : []), ...nodeArgs, script];
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

/** The bench client's certificate credential (EC P-256: ES256 assertions are cheap for the load generator to make). */
export interface BenchCertificate {
  privateKeyPem: string;
  x5tS256: string;
}

export interface Provisioned {
  certificate: BenchCertificate;
  databaseName: string;
  databaseUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  pepper: Buffer;
  kek: Buffer;
  config: AppConfig;
  /** The bootstrap operator's client (admin API scopes through its owner's Administrator role). */
  adminClient: { clientId: string; clientSecret: string; scope: string };
  /** The id of the scope `Orders.Read` (generated clients are granted it). */
  scopeId: string;
  setAlgorithm(alg: Algorithm): Promise<void>;
  close(): Promise<void>;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** A fresh database, migrated; a tenant, the API `api://orders` with a scope and a client with a secret, through the real services. */
export async function provision(): Promise<Provisioned> {
  const databaseName = `gatehouse_bench_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE "${databaseName}"`);
  const url = databaseUrl(databaseName);
  await migrateDatabase(url);
  const pepper = randomBytes(32);
  const kek = randomBytes(32);
  const config: AppConfig = { ...benchConfig({ databaseUrl: url, publicUrl: 'http://127.0.0.1', pepper, kek }), logLevel: 'warn' };
  const context = await createProvisioningContext(config, discard);
  const admin = await context.get(BootstrapService).bootstrap({ tenant: 'bench', rotateSecret: false });
  const { tenantId } = admin;
  const api = await context.get(ApiService).create(tenantId, SYSTEM_ACTOR, { identifier: API_IDENTIFIER, displayName: 'Orders' });
  const scope = await context.get(ApiService).addScope(tenantId, SYSTEM_ACTOR, api.id, { value: SCOPE_VALUE, description: 'Read orders' });
  const clients = context.get(ClientService);
  const client = await clients.create(tenantId, SYSTEM_ACTOR, { displayName: 'Benchmark', contactEmail: 'bench@example.com' });
  const secret = await clients.issueSecret(tenantId, SYSTEM_ACTOR, client.clientId, { displayName: 'bench' });
  await clients.setScopes(tenantId, SYSTEM_ACTOR, client.clientId, [`${API_IDENTIFIER}/${SCOPE_VALUE}`]);
  const dataSource = context.get(DataSource);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const der = selfSignedCertificate(privateKey, { commonName: 'bench daemon', notBefore: new Date(now - 3_600_000), notAfter: new Date(now + 86_400_000) });
  await context.get(ClientCertificateService).add(tenantId, SYSTEM_ACTOR, client.clientId, { certificate: certificatePem(der) });
  return {
    certificate: {
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      x5tS256: createHash('sha256').update(der).digest('base64url'),
    },
    databaseName,
    databaseUrl: url,
    tenantId,
    clientId: client.clientId,
    clientSecret: secret.secretText,
    pepper,
    kek,
    config,
    adminClient: { clientId: admin.clientId, clientSecret: admin.clientSecret!, scope: admin.scope },
    scopeId: scope.id,
    // The setting publishes a key of the new algorithm, which would sign a day later; the benchmark
    // rolls it in at once (the emergency rollover) so that the next run signs with it.
    setAlgorithm: (alg) =>
      dataSource.transaction(async (em) => {
        await context.get(TenantService).updateSettings(em, tenantId, { signingAlgorithm: alg });
        await context.get(SigningKeyService).rollover(em, tenantId, alg);
      }),
    close: () => context.close(),
  };
}

export function targets(p: Provisioned, alg: Algorithm): Target[] {
  const gatehouseForm = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: p.clientId,
    client_secret: p.clientSecret,
    scope: `${API_IDENTIFIER}/.default`,
  }).toString();
  const shared = { ALG: alg, CLIENT_ID: p.clientId, CLIENT_SECRET: p.clientSecret, SCOPE: SCOPE_VALUE };
  return [
    {
      name: 'ceiling',
      script: 'ceiling-server.js',
      tokenPath: '/token',
      jwksPath: '/jwks',
      body: gatehouseForm,
      env: { ...shared, PEPPER: p.pepper.toString('hex') },
    },
    {
      name: 'gatehouse',
      script: 'gatehouse-server.js',
      tokenPath: `/${p.tenantId}/oauth2/v2.0/token`,
      jwksPath: `/${p.tenantId}/discovery/v2.0/keys`,
      body: gatehouseForm,
      env: { DATABASE_URL: p.databaseUrl, PEPPER: p.pepper.toString('hex'), KEK: p.kek.toString('hex') },
    },
    {
      name: 'oidc-provider',
      script: 'oidc-provider-server.js',
      tokenPath: '/token',
      jwksPath: '/jwks',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: p.clientId,
        client_secret: p.clientSecret,
        scope: SCOPE_VALUE,
      }).toString(),
      env: { ...shared, RESOURCE: API_IDENTIFIER },
    },
  ];
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

/**
 * p99 under open-loop load at a fixed rate (see paced-load.ts for why not autocannon's
 * overallRate), on a fresh server that first runs exactly what a measured round runs (warm-up and
 * full-speed run): after 3 s of load alone, JIT and heap sizing are not settled and the tail of
 * every server, the ceiling's too, is several times longer. Each paced window runs 2 s before its
 * measured seconds: its first 200 ms (new connections, the generator's own cold code) held 1 % of
 * all requests above 5 ms, which alone would set the p99. There are `rounds` windows and the
 * median p99 counts: on this shared virtual machine one stall of ~100 ms (seen in single windows,
 * for the ceiling too) delays enough requests to move a p99 several-fold.
 */
export async function p99AtRate(target: Target, alg: Algorithm, rate: number): Promise<{ p99Ms: number; windowsMs: number[] }> {
  const server = await startServer(target);
  try {
    await verifyOneToken(target, server, alg);
    await load(target, server, settings.warmupSeconds + settings.durationSeconds);
    const windowsMs: number[] = [];
    for (let window = 0; window < settings.rounds; window++) {
      const paced = await pacedLoadInChild({
        url: server.url + target.tokenPath,
        body: target.body,
        rate: Math.max(1, Math.round(rate)),
        seconds: settings.durationSeconds,
        warmupSeconds: smoke ? 0 : 2,
      });
      if (paced.failed > 0) failures.push(`${target.name} at ${rate}/s: ${paced.failed} failed of ${paced.sent}`);
      windowsMs.push(paced.p99Ms);
    }
    const sorted = [...windowsMs].sort((a, b) => a - b);
    return { p99Ms: sorted[Math.floor(sorted.length / 2)]!, windowsMs };
  } finally {
    await stopServer(server);
  }
}

/** {@link pacedLoad} in a fresh process on the load generator's core (see paced-load-child.ts). */
export function pacedLoadInChild(options: Parameters<typeof pacedLoad>[0]): Promise<PacedResult> {
  const script = join(here, 'paced-load-child.js');
  const command = pin ? 'taskset' : process.execPath;
  const args = [...(pin ? ['-c', '0', process.execPath] : []), script];
  const child = spawn(command, args, {
    env: { ...process.env, PACED_LOAD: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolveResult, reject) => {
    let result: PacedResult | undefined;
    child.once('message', (message: PacedResult) => (result = message));
    child.once('exit', (code) =>
      result ? resolveResult(result) : reject(new Error(`the paced load generator exited with ${code}`)),
    );
  });
}

/** A server (Gatehouse in the report) under load with `--cpu-prof`; returns the top self-time frames. */
export async function profileGatehouse(target: Target, alg: Algorithm = 'ES256'): Promise<ProfileSummary> {
  const dir = smoke ? logDir : join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const name = `${target.name}-${alg.toLowerCase()}.cpuprofile`;
  const server = await startServer(target, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`]);
  let window: ProfileWindow;
  try {
    await verifyOneToken(target, server, alg);
    await load(target, server, settings.warmupSeconds);
    const fromUs = monotonicMicros();
    await load(target, server, Math.min(settings.durationSeconds, 10));
    window = { fromUs, toUs: monotonicMicros() };
  } finally {
    await stopServer(server);
  }
  return summarizeCpuProfile(join(dir, name), 25, window);
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
