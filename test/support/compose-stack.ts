import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import {
  type ComposeFile,
  LocalProcess,
  freePort,
  localEnvironment,
  localNginxConfig,
  nodeCommand,
  proxyAddressOf,
  readCompose,
  readImage,
  scratch,
  startNginx,
} from './compose-topology.js';
import { SmtpSink } from './smtp-sink.js';
import { databaseUrl, withServer } from './test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One started replica of a compose service, with what it was started with (to start it again). */
export interface Replica {
  service: string;
  process: LocalProcess;
  env: Record<string, string>;
  command: string[];
  port: number;
  managementPort: number;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 50 ms until it gives a value (a throw counts as not yet); fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, context = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await sleep(50);
  }
}

export interface LocalAnswer {
  status: number;
  text: string;
  cookies: string[];
}

/** An HTTP request from a chosen local address (127.0.0.x), so the proxy sees distinct clients. */
function requestFrom(localAddress: string, url: string, options: { method?: string; headers?: Record<string, string | number> }, body?: string) {
  return new Promise<LocalAnswer>((resolve, reject) => {
    const req = httpRequest(url, { ...options, localAddress });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text, cookies: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function getFrom(localAddress: string, url: string): Promise<LocalAnswer> {
  return requestFrom(localAddress, url, {});
}

/** A form POST from a chosen local address. */
export function postFrom(localAddress: string, url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LocalAnswer> {
  const body = new URLSearchParams(form).toString();
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...headers };
  return requestFrom(localAddress, url, { method: 'POST', headers: formHeaders }, body);
}

/**
 * docker-compose.yml, started as it describes it, as local processes: the built checkout for the
 * image (its ENV and ENTRYPOINT read from the Dockerfile), the machine's PostgreSQL for `postgres`,
 * an in-process SMTP server for `mailpit`, Debian's nginx with deploy/nginx.conf for `proxy`.
 * Only addresses and ports change; every variable and command comes from the compose file.
 */
export class ComposeStack {
  readonly sink = new SmtpSink();
  readonly replicas: Replica[] = [];
  compose!: ComposeFile;
  proxyUrl = '';
  adminUrl = '';
  tenant = '';
  private adminToken = '';
  private image!: ReturnType<typeof readImage>;
  private readonly processes: LocalProcess[] = [];
  private readonly database = `gatehouse_topology_${randomBytes(4).toString('hex')}`;

  byService(name: string): Replica[] {
    return this.replicas.filter((r) => r.service === name);
  }

  /** The last output of every process, for a failure's message. */
  outputs = (): string => this.processes.map((p) => `--- ${p.name}\n${p.output.slice(-3000)}`).join('\n');

  /** Migrates, bootstraps, starts every replica the compose file asks for and the proxy; signs in to the admin API. */
  async start(): Promise<void> {
    await this.sink.start();
    await withServer((client) => client.query(`CREATE DATABASE "${this.database}"`));
    const proxyPort = await freePort();
    this.proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const dotEnv = {
      POSTGRES_PASSWORD: 'unused-locally',
      SECRET_PEPPER: randomBytes(32).toString('hex'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: this.proxyUrl,
    };
    this.compose = readCompose(dotEnv);
    this.image = readImage();
    const replacements = { databaseUrl: databaseUrl(this.database), smtpUrl: this.sink.url, proxyAddress: proxyAddressOf(this.compose, 'proxy') };
    const environment = (service: string) => ({ ...this.image.env, ...localEnvironment(this.compose.services[service]!, replacements) });

    const migrate = await this.startReplica('migrate', 0, environment('migrate'));
    expect(await migrate.process.exited, migrate.process.output).toBe(0);
    const bootstrap = new LocalProcess('bootstrap', nodeCommand(this.image.entrypoint, ['bootstrap', '--tenant', 'default', '--json']), migrate.env);
    expect(await bootstrap.exited, bootstrap.output).toBe(0);
    const credentials = JSON.parse(bootstrap.output.slice(bootstrap.output.indexOf('{'))) as Json;
    this.tenant = credentials.tenant;

    const started: Replica[] = [];
    for (const service of ['identity', 'admin', 'worker']) {
      for (let i = 0; i < (this.compose.services[service]!.deploy?.replicas ?? 1); i++) {
        started.push(await this.startReplica(service, i, environment(service)));
      }
    }
    this.replicas.push(...started);
    await Promise.all(started.map((r) => this.ready(r)));
    const identityAddresses = this.byService('identity').map((r) => `127.0.0.1:${r.port}`);
    const published = Number(this.compose.services.proxy!.ports![0]!.split(':')[0]);
    this.processes.push(startNginx(localNginxConfig({ 'identity:3000': identityAddresses }, { [published]: proxyPort })));
    await until('proxy', async () => ((await fetch(`${this.proxyUrl}/health/live`)).ok ? true : undefined), 10_000, this.outputs);
    this.adminUrl = `http://127.0.0.1:${this.byService('admin')[0]!.port}`;

    const issued = await this.token(this.proxyUrl, { client_id: credentials.clientId, client_secret: credentials.clientSecret, scope: credentials.scope });
    expect(issued.status).toBe(200);
    this.adminToken = ((await issued.json()) as Json).access_token;
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
    await this.sink.stop();
    await withServer((client) => client.query(`DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`));
  }

  /** Fails when a replica stopped on its own (with its output). */
  expectAllRunning(): void {
    const stopped = this.replicas.filter((r) => !r.process.running);
    if (stopped.length) throw new Error(`stopped unexpectedly: ${stopped.map((r) => `${r.process.name}\n${r.process.output}`).join('\n')}`);
  }

  ready(r: Replica): Promise<true> {
    return until(
      `${r.process.name} ready`,
      async () => {
        if (!r.process.running) throw new Error(`${r.process.name} exited:\n${r.process.output}`);
        const res = await fetch(`http://127.0.0.1:${r.managementPort}/health/ready`);
        return res.ok ? true : undefined;
      },
      60_000,
      this.outputs,
    );
  }

  /** Stops a replica (SIGTERM, expecting a clean exit), starts it again as before and waits until it is ready. */
  async restart(replica: Replica): Promise<void> {
    expect(await replica.process.stop('SIGTERM')).toBe(0);
    replica.process = new LocalProcess(`${replica.process.name}-again`, replica.command, replica.env);
    this.processes.push(replica.process);
    await this.ready(replica);
  }

  /** A call of the admin API as the bootstrap client; a failure throws with the answer. */
  async admin(method: string, path: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${this.adminUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${this.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  }

  /** Through the admin API: an API with one scope, a client with a secret and that scope. */
  async activeClient(name: string, scope: string) {
    const api = await this.admin('POST', '/apis', { identifier: `api://${name}`, displayName: name });
    await this.admin('POST', `/apis/${api.id}/scopes`, { value: scope, description: scope });
    const client = await this.admin('POST', '/clients', { displayName: `${name} sync`, contactEmail: 'ops@example.com' });
    const secret = await this.admin('POST', `/clients/${client.clientId}/secrets`, {});
    await this.admin('PUT', `/clients/${client.clientId}/scopes`, { scopes: [`api://${name}/${scope}`] });
    return { client, secret, fields: { client_id: client.clientId, client_secret: secret.secretText, scope: `api://${name}/.default` } };
  }

  /** A client-credentials token request to the identity app at `base` (the proxy or one replica). */
  token(base: string, fields: Record<string, string>): Promise<Response> {
    return fetch(`${base}/${this.tenant}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }),
    });
  }

  private async startReplica(service: string, index: number, base: Record<string, string>): Promise<Replica> {
    const [port, managementPort] = [await freePort(), await freePort()];
    const env: Record<string, string> = {
      PATH: process.env.PATH!,
      ...base,
      DATA_DIR: scratch(`topology-${service}`),
      MANAGEMENT_PORT: String(managementPort),
      // The warm-up runs, shortened: 20,000 requests take both cores for seconds per identity start
      // (three here), and what the warm-up itself does is token-warm-up.e2e-spec.ts's subject.
      TOKEN_WARMUP_REQUESTS: '200',
    };
    if (service === 'admin') env.ADMIN_PORT = String(port);
    else env.PORT = String(port);
    const command = nodeCommand(this.image.entrypoint, this.compose.services[service]!.command ?? []);
    const replica = { service, process: new LocalProcess(`${service}-${index}`, command, env), env, command, port, managementPort };
    this.processes.push(replica.process);
    return replica;
  }
}
