import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
} from './support/compose-topology.js';
import { SmtpSink } from './support/smtp-sink.js';
import { databaseUrl, withServer } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Replica {
  service: string;
  process: LocalProcess;
  env: Record<string, string>;
  command: string[];
  port: number;
  managementPort: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  context = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await sleep(50);
  }
}

/** A form POST from a chosen local address (127.0.0.x), so the proxy sees distinct clients. */
function postFrom(
  localAddress: string,
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams(form).toString();
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      localAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
        ...headers,
      },
    });
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

function getFrom(localAddress: string, url: string) {
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    httpRequest(url, { localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text, cookies: res.headers['set-cookie'] ?? [] }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * docker-compose.yml, started as it describes it, as local processes: the built checkout for the
 * image (its ENV and ENTRYPOINT read from the Dockerfile), the machine's PostgreSQL for `postgres`,
 * an in-process SMTP server for `mailpit`, Debian's nginx with deploy/nginx.conf for `proxy`.
 * Only addresses and ports change; every variable and command comes from the compose file.
 */
describe('the compose topology: proxy, identity × 2, admin, worker × 2 on one PostgreSQL', () => {
  const sink = new SmtpSink();
  const database = `gatehouse_topology_${randomBytes(4).toString('hex')}`;
  const replicas: Replica[] = [];
  const processes: LocalProcess[] = [];
  let compose: ComposeFile;
  let image: ReturnType<typeof readImage>;
  let proxyUrl: string;
  let adminUrl: string;
  let adminToken: string;
  let tenant: string;

  const byService = (name: string) => replicas.filter((r) => r.service === name);
  const outputs = () => processes.map((p) => `--- ${p.name}\n${p.output.slice(-3000)}`).join('\n');

  async function startReplica(service: string, index: number, base: Record<string, string>): Promise<Replica> {
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
    const command = nodeCommand(image.entrypoint, compose.services[service]!.command ?? []);
    const replica = {
      service,
      process: new LocalProcess(`${service}-${index}`, command, env),
      env,
      command,
      port,
      managementPort,
    };
    processes.push(replica.process);
    return replica;
  }

  const ready = (r: Replica) =>
    until(
      `${r.process.name} ready`,
      async () => {
        if (!r.process.running) throw new Error(`${r.process.name} exited:\n${r.process.output}`);
        const res = await fetch(`http://127.0.0.1:${r.managementPort}/health/ready`);
        return res.ok ? true : undefined;
      },
      60_000,
      outputs,
    );

  const admin = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${adminUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };

  /** Through the admin API: an API with one scope, a client with a secret and that scope. */
  const activeClient = async (name: string, scope: string) => {
    const api = await admin('POST', '/apis', { identifier: `api://${name}`, displayName: name });
    await admin('POST', `/apis/${api.id}/scopes`, { value: scope, description: scope });
    const client = await admin('POST', '/clients', { displayName: `${name} sync`, contactEmail: 'ops@example.com' });
    const secret = await admin('POST', `/clients/${client.clientId}/secrets`, {});
    await admin('PUT', `/clients/${client.clientId}/scopes`, { scopes: [`api://${name}/${scope}`] });
    return {
      client,
      secret,
      fields: { client_id: client.clientId, client_secret: secret.secretText, scope: `api://${name}/.default` },
    };
  };

  const token = (base: string, fields: Record<string, string>) =>
    fetch(`${base}/${tenant}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }),
    });

  beforeAll(async () => {
    await sink.start();
    await withServer((client) => client.query(`CREATE DATABASE "${database}"`));
    const proxyPort = await freePort();
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const dotEnv = {
      POSTGRES_PASSWORD: 'unused-locally',
      SECRET_PEPPER: randomBytes(32).toString('hex'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: proxyUrl,
    };
    compose = readCompose(dotEnv);
    image = readImage();
    const replacements = {
      databaseUrl: databaseUrl(database),
      smtpUrl: sink.url,
      proxyAddress: proxyAddressOf(compose, 'proxy'),
    };
    const environment = (service: string) => ({
      ...image.env,
      ...localEnvironment(compose.services[service]!, replacements),
    });

    const migrate = await startReplica('migrate', 0, environment('migrate'));
    expect(await migrate.process.exited, migrate.process.output).toBe(0);
    const bootstrap = new LocalProcess(
      'bootstrap',
      nodeCommand(image.entrypoint, ['bootstrap', '--tenant', 'default', '--json']),
      migrate.env,
    );
    expect(await bootstrap.exited, bootstrap.output).toBe(0);
    const credentials = JSON.parse(bootstrap.output.slice(bootstrap.output.indexOf('{'))) as Json;
    tenant = credentials.tenant;

    const started: Replica[] = [];
    for (const service of ['identity', 'admin', 'worker']) {
      for (let i = 0; i < (compose.services[service]!.deploy?.replicas ?? 1); i++) {
        started.push(await startReplica(service, i, environment(service)));
      }
    }
    replicas.push(...started);
    await Promise.all(started.map(ready));
    const identityAddresses = byService('identity').map((r) => `127.0.0.1:${r.port}`);
    const published = Number(compose.services.proxy!.ports![0]!.split(':')[0]);
    const proxy = startNginx(localNginxConfig({ 'identity:3000': identityAddresses }, { [published]: proxyPort }));
    processes.push(proxy);
    await until('proxy', async () => ((await fetch(`${proxyUrl}/health/live`)).ok ? true : undefined), 10_000, outputs);
    adminUrl = `http://127.0.0.1:${byService('admin')[0]!.port}`;

    const issued = await token(proxyUrl, {
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      scope: credentials.scope,
    });
    expect(issued.status).toBe(200);
    adminToken = ((await issued.json()) as Json).access_token;
  }, 120_000);

  beforeEach(() => {
    const stopped = replicas.filter((r) => !r.process.running);
    if (stopped.length)
      throw new Error(
        `stopped unexpectedly: ${stopped.map((r) => `${r.process.name}\n${r.process.output}`).join('\n')}`,
      );
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await sink.stop();
    await withServer((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  }, 60_000);

  it('the compose file names what the test runs: two identity replicas behind the proxy, two workers', () => {
    expect(byService('identity')).toHaveLength(2);
    expect(byService('worker')).toHaveLength(2);
    expect(byService('identity')[0]!.env.TRUST_PROXY).toBe('127.0.0.1');
    expect(compose.services.migrate!.command).toEqual(['migrate']);
  });

  it('a disabled client and a revoked secret are refused by both identity replicas within 1 s', async () => {
    const { client, secret, fields } = await activeClient('orders', 'Orders.Read');
    const direct = byService('identity').map((r) => `http://127.0.0.1:${r.port}`);
    for (const base of direct) expect((await token(base, fields)).status).toBe(200); // both replicas cache it

    // Refused = a 4xx answer (invalid_client or unauthorized_client, whichever the mapping says).
    const refusedEverywhere = async () => {
      const started = Date.now();
      await until(
        'refusal on both replicas',
        async () => {
          const statuses = await Promise.all(direct.map(async (base) => (await token(base, fields)).status));
          return statuses.every((s) => s >= 400 && s < 500) ? true : undefined;
        },
        5_000,
      );
      return Date.now() - started;
    };
    await admin('POST', `/clients/${client.clientId}/disable`);
    const disabledMs = await refusedEverywhere();
    await admin('POST', `/clients/${client.clientId}/enable`);
    for (const base of direct)
      await until('enabled again', async () => ((await token(base, fields)).status === 200 ? true : undefined), 5_000);
    await admin('DELETE', `/clients/${client.clientId}/secrets/${secret.keyId}`);
    const revokedMs = await refusedEverywhere();
    console.log(
      `[topology] refused on both replicas after: client disabled ${disabledMs} ms, secret revoked ${revokedMs} ms`,
    );
    expect(disabledMs).toBeLessThan(1_000);
    expect(revokedMs).toBeLessThan(1_000);
  });

  it('200 invitations with two workers: each mail delivered exactly once', async () => {
    await admin('POST', '/doc-sections', { slug: 'guide', title: 'Guide', body: 'x' });
    const users = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        admin('POST', '/users', {
          username: `reader${i}`,
          email: `reader${i}@example.com`,
          displayName: `Reader ${i}`,
        }),
      ),
    );
    const before = sink.messages.length;
    for (let round = 0; round < 10; round++) {
      await Promise.all(users.map((user) => admin('POST', '/invitations', { userId: user.id, sections: ['guide'] })));
    }
    const invitations = await until(
      '200 invitation mails',
      async () => {
        const mails = sink.messages.slice(before).filter((m) => m.subject.includes('invited'));
        return mails.length >= 200 ? mails : undefined;
      },
      60_000,
    );
    await sleep(1_000); // a duplicate would arrive now
    const all = sink.messages.slice(before).filter((m) => m.subject.includes('invited'));
    expect(all).toHaveLength(200);
    expect(new Set(all.map((m) => m.parsed.messageId)).size).toBe(200);
    expect(invitations).toHaveLength(200);
  });

  it('one identity replica restarted under ~200 token requests/s through the proxy: no request fails', async () => {
    const { fields } = await activeClient('stock', 'Stock.Read');
    const failures: string[] = [];
    let sent = 0;
    let running = true;
    const inFlight = new Set<Promise<void>>();
    const load = (async () => {
      for (let tick = 0; running; tick++) {
        const due = Date.now() + 50;
        for (let i = 0; i < 11; i++) {
          sent++;
          const request: Promise<void> = token(proxyUrl, fields)
            .then(
              async (res) =>
                void (res.status === 200
                  ? await res.arrayBuffer()
                  : failures.push(`${res.status} ${await res.text()}`)),
            )
            .catch((error: Error) => void failures.push(error.message))
            .finally(() => inFlight.delete(request));
          inFlight.add(request);
        }
        await sleep(Math.max(0, due - Date.now()));
      }
    })();
    await sleep(1_000);
    const [target] = byService('identity');
    const started = Date.now();
    expect(await target!.process.stop('SIGTERM')).toBe(0);
    const restarted = new LocalProcess(`${target!.process.name}-again`, target!.command, target!.env);
    processes.push(restarted);
    target!.process = restarted;
    await ready(target!);
    const restartMs = Date.now() - started;
    await sleep(1_500);
    running = false;
    await load;
    await Promise.all(inFlight);
    const seconds = (Date.now() - started + 1_000) / 1000;
    console.log(
      `[topology] rolling restart: ${sent} token requests (~${Math.round(sent / seconds)}/s), restart took ${restartMs} ms, ${failures.length} failed`,
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(400);
  });

  it("the login throttle sees the client's address through the proxy, not the proxy's, and ignores a forged X-Forwarded-For", async () => {
    const login = async (from: string, forged: string) => {
      const page = await getFrom(from, `${proxyUrl}/login`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const cookie = page.cookies.map((c) => c.split(';')[0]).join('; ');
      return postFrom(
        from,
        `${proxyUrl}/login`,
        { _csrf: csrf, returnTo: '/docs', username: 'nobody', password: 'wrong password here' },
        {
          cookie,
          'x-forwarded-for': forged,
        },
      );
    };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await login('127.0.0.2', `198.51.100.${i}`)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200 || s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect([200, 401]).toContain((await login('127.0.0.3', '127.0.0.2')).status);
  });
});
