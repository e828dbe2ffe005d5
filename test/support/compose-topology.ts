import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { freePort } from './http-apps.js';

export const REPO = resolve(import.meta.dirname, '../..');

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  networks?: Record<string, { ipv4_address?: string }> | string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** `${VAR}`, `${VAR:-default}`, `${VAR:?message}` as Compose interpolates them from `.env`. */
export function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_all, name: string, op?: string, arg?: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (op === ':?') throw new Error(`compose: ${arg ?? `${name} is required`}`);
    return op === ':-' ? (arg ?? '') : '';
  });
}

export function readCompose(env: Record<string, string>): ComposeFile {
  return parse(interpolate(readFileSync(join(REPO, 'docker-compose.yml'), 'utf8'), env), {
    merge: true,
  }) as ComposeFile;
}

/** The image as the Dockerfile builds it: its final stage's ENV and ENTRYPOINT. */
export function readImage(): { env: Record<string, string>; entrypoint: string[] } {
  const text = readFileSync(join(REPO, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of finalStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/([A-Z0-9_]+)=(\S+)/g)) env[name!] = value!;
  }
  const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(finalStage)![1]!) as string[];
  return { env, entrypoint };
}

export interface Replacements {
  /** Compose service name → how this machine reaches it (`postgres` → the test database…). */
  databaseUrl: string;
  smtpUrl: string;
  /** The proxy's address on the compose network, as services name it (TRUST_PROXY). */
  proxyAddress: string | undefined;
}

/**
 * A service's environment as this machine runs it: what names another service (`postgres`,
 * `mailpit`, the proxy's address, the bind address) points at the local stand-in; nothing else
 * changes, so a misnamed variable or a wrong value in the compose file still reaches the app.
 */
export function localEnvironment(service: ComposeService, r: Replacements): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(service.environment ?? {})) {
    let value = String(raw);
    if (/^postgres(ql)?:\/\/[^@]*@postgres:/.test(value)) value = r.databaseUrl;
    else if (/^smtps?:\/\/([^@]*@)?mailpit:/.test(value)) value = r.smtpUrl;
    else if (r.proxyAddress && value === r.proxyAddress) value = '127.0.0.1';
    else if (value === '0.0.0.0') value = '127.0.0.1';
    out[name] = value;
  }
  return out;
}

export function proxyAddressOf(compose: ComposeFile, name: string): string | undefined {
  const networks = compose.services[name]?.networks;
  if (!networks || Array.isArray(networks)) return undefined;
  return Object.values(networks).find((n) => n?.ipv4_address)?.ipv4_address;
}

/** A process started from a compose service; keeps its output for diagnostics. */
export class LocalProcess {
  output = '';
  exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(
    readonly name: string,
    command: string[],
    env: Record<string, string>,
    /** A file descriptor for stdout instead of a pipe (nginx opens /dev/stdout, which a socket cannot be). */
    stdout?: number,
  ) {
    this.child = spawn(command[0]!, command.slice(1), { cwd: REPO, env, stdio: ['ignore', stdout ?? 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    this.child.stdout?.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/** The node command of a service: the image's ENTRYPOINT (node → this Node) and the service's command. */
export function nodeCommand(entrypoint: string[], command: string[]): string[] {
  const [binary, ...rest] = entrypoint;
  return [binary === 'node' ? process.execPath : binary!, ...rest, ...command];
}

/** A scratch directory under the run's temporary directory. */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The committed nginx configuration with the compose network's names swapped for this machine's:
 * `server identity:3000` becomes one server per local replica, `listen 3000` the local port.
 */
export function localNginxConfig(upstreams: Record<string, string[]>, published: Record<string, number>): string {
  let conf = readFileSync(join(REPO, 'deploy/nginx.conf'), 'utf8');
  for (const [hostPort, addresses] of Object.entries(upstreams)) {
    conf = conf.replace(new RegExp(`server ${hostPort}([^;]*);`), (_all, options: string) =>
      addresses.map((address) => `server ${address}${options};`).join('\n    '),
    );
  }
  for (const [port, local] of Object.entries(published)) {
    conf = conf.replace(new RegExp(`listen ${port};`), `listen 127.0.0.1:${local};`);
  }
  return conf;
}

export function startNginx(conf: string): LocalProcess {
  const dir = scratch('nginx');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', `daemon off; pid ${dir}/nginx.pid;`];
  const env = { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/bin:/sbin:/bin` };
  return new LocalProcess('proxy', ['nginx', ...args], env, openSync(join(dir, 'access.log'), 'a'));
}

export { freePort };
