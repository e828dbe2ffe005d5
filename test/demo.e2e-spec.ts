import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalProcess, freePort, scratch } from './support/compose-topology.js';
import { csrfOf } from './support/console.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { authenticatorApp, secretOf } from './support/totp.js';

const MAIN = resolve(import.meta.dirname, '../dist/apps/cli/src/main.js');

interface SignIn {
  role: string;
  username: string;
  email: string;
  password: string;
}

/** A command of the CLI to its end: exit code and everything it printed. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** The sign-in rows of the demo's box: `| Administrator   ada    ada@example.com    k7rm-… |`. */
function signInsOf(text: string): Record<string, SignIn> {
  const rows = [...text.matchAll(/^\| {3}(Administrator|Contact person|IT department|Auditor) +(\S+) +(\S+@\S+) +(\S+) +\|$/gm)];
  return Object.fromEntries(rows.map(([, role, username, email, password]) => [role!, { role: role!, username: username!, email: email!, password: password! }]));
}

function cards(text: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const m of text.matchAll(/<span class="card-figure[^"]*">(\d+)<\/span>\s*<span class="card-label">([^<]+)<\/span>/g)) found[m[2]!] = Number(m[1]);
  return found;
}

/**
 * `npm run demo` on a fresh database: tenant `default` bootstrapped and filled through the use
 * cases, every app started, the sign-ins printed last; the printed people sign in as the box says
 * (password, then an authenticator app set up at the first sign-in) and see a working day. A
 * second run changes nothing; a database with anything else in it is refused.
 */
describe('npm run demo', () => {
  let database: TestDatabase;
  let demo: LocalProcess;
  let env: Record<string, string>;
  let origin: string;
  let printed: Record<string, SignIn>;
  const dataDir = scratch('demo');

  beforeAll(async () => {
    database = await createTestDatabase();
    const adminPort = await freePort();
    const port = await freePort();
    origin = `http://127.0.0.1:${adminPort}`;
    env = {
      PATH: process.env.PATH!,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      MANAGEMENT_PORT: String(await freePort()),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_PUBLIC_URL: origin,
      TOKEN_WARMUP_REQUESTS: '0',
    };
    demo = new LocalProcess('demo', [process.execPath, MAIN, 'demo'], env);
    const deadline = Date.now() + 90_000;
    while (!/sign-ins ask for the code of the app\. +\|\n\+-+\+\n/.test(demo.output)) {
      if (!demo.running || Date.now() > deadline) throw new Error(`demo did not get ready:\n${demo.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    printed = signInsOf(demo.output);
  }, 120_000);

  afterAll(async () => {
    await demo?.stop();
    await database?.drop();
  }, 30_000);

  async function query<T>(sql: string, params: unknown[] = [], url = database.url): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Signs in as the box says: username and password, then the authenticator app the console sets up. */
  async function signIn(person: SignIn): Promise<request.Agent> {
    const agent = request.agent(origin);
    const form = await agent.get('/console/login').expect(200);
    const password = await agent
      .post('/console/login')
      .set('Origin', origin)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username: person.username, password: person.password, returnTo: '/console' });
    expect(password.status).toBe(303);
    expect(password.headers.location).toMatch(/^\/console\/enroll\?/);
    const enrol = await agent.get(password.headers.location!).expect(200);
    const code = authenticatorApp(secretOf(enrol.text)).code();
    const done = await agent.post('/console/enroll').set('Origin', origin).type('form').send({ _csrf: csrfOf(enrol.text), code });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your recovery codes');
    return agent;
  }

  it('prints one sign-in per role, keeps them in DATA_DIR/demo.json (0600), and prints them after the ready box', () => {
    expect(Object.keys(printed).sort()).toEqual(['Administrator', 'Auditor', 'Contact person', 'IT department']);
    expect(printed.Administrator).toMatchObject({ username: 'ada', email: 'ada@example.com' });
    expect(demo.output.indexOf('Gatehouse is ready')).toBeLessThan(demo.output.indexOf('Sign in at'));
    expect(demo.output).toContain(`Sign in at ${origin}/console/login`);
    const file = join(dataDir, 'demo.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = (JSON.parse(readFileSync(file, 'utf8')) as { signIns: SignIn[] }).signIns;
    expect(kept.map((s) => s.password)).toEqual(Object.values(printed).map((s) => s.password));
  });

  it('made everything through the use cases: the audit log tells the day, each step by the person whose job it is', async () => {
    const events = await query<{ who: string | null; action: string }>(
      `SELECT coalesce(actor_name, actor_type) AS who, action FROM audit_events ORDER BY occurred_at, id`,
    );
    const steps = events.map((e) => `${e.who}: ${e.action}`);
    for (const step of [
      'Ada Quinn: user.staff_invited',
      'Carla Mendes: user.password.set_by_link',
      'Carla Mendes: organisation.created',
      'Ivan Petrov: api.scope.created',
      'Carla Mendes: doc_section.created',
      'Carla Mendes: access_request.approved',
      'Ivan Petrov: client.scopes.set',
      'Carla Mendes: client.secret.created',
    ]) {
      expect(steps).toContain(step);
    }
    expect(steps.at(-1)).toBe('system: tenant.demo_filled');
  });

  it('the Administrator and the contact person sign in as printed and see the queues with their numbers', async () => {
    const ada = await signIn(printed.Administrator!);
    const overview = await ada.get('/console').expect(200);
    expect(cards(overview.text)).toMatchObject({
      'Access requests to decide': 1,
      'Clients awaiting scopes': 1,
      'Secrets expiring within 30 days': 1,
    });
    expect(overview.text).toContain('Recent activity');
    expect(overview.text).toContain('Carla Mendes');
    const carla = await signIn(printed['Contact person']!);
    expect(cards((await carla.get('/console').expect(200)).text)).toMatchObject({ 'Access requests to decide': 1 });
    const requests = await carla.get('/console/requests?status=submitted').expect(200);
    expect(requests.text).toContain('Priya Raman');
  });

  it('the organisation page shows the partner with its people, clients and requests', async () => {
    const audra = await signIn(printed.Auditor!);
    const list = await audra.get('/console/organisations').expect(200);
    const link = /href="(\/console\/organisations\/[0-9a-f-]{36})"[^>]*>Northwind Logistics</.exec(list.text)?.[1];
    expect(link, list.text).toBeDefined();
    const page = (await audra.get(link!).expect(200)).text;
    for (const name of ['Tomás Berg', 'Northwind route planner', 'Northwind dispatch sync']) expect(page).toContain(name);
    expect(page).toMatch(/People \(1\)[^]*Clients \(2\)[^]*Access requests \(1\)/);
  });

  it('a second run on the filled demo changes nothing and prints the same sign-ins', async () => {
    const [{ count: before }] = await query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_events`);
    const again = await cli(['demo', '--fill-only'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Tenant "default" holds the demo already; nothing was changed.');
    expect(signInsOf(again.stdout)).toEqual(printed);
    const [{ count: after }] = await query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_events`);
    expect(after).toBe(before);
  });

  /** A database of its own with what `setup` leaves in it, and the demo's answer there. */
  async function demoAfter(setup: (env: Record<string, string>) => Promise<void>, check: (run: Awaited<ReturnType<typeof cli>>, url: string) => Promise<void>) {
    const other = await createTestDatabase();
    try {
      const otherEnv = { ...env, DATABASE_URL: other.url, DATA_DIR: scratch('demo-other') };
      await setup(otherEnv);
      await check(await cli(['demo', '--fill-only'], otherEnv), other.url);
    } finally {
      await other.drop();
    }
  }

  /** Runs CLI commands one after the other, each to a clean end. */
  const commands = (...lines: string[][]) => async (env: Record<string, string>) => {
    for (const args of lines) expect((await cli(args, env)).code, args.join(' ')).toBe(0);
  };

  it('fills a database that a first `npm start` has just set up (the bootstrap and the Administrator\'s invitation)', async () => {
    const firstStart = async (env: Record<string, string>) => {
      const ports = { PORT: String(await freePort()), ADMIN_PORT: String(await freePort()), MANAGEMENT_PORT: String(await freePort()) };
      const start = new LocalProcess('start', [process.execPath, MAIN, 'start'], { ...env, ...ports });
      const deadline = Date.now() + 60_000;
      while (!start.output.includes('Stop with Ctrl-C')) {
        if (!start.running || Date.now() > deadline) throw new Error(`start did not get ready:\n${start.output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(start.output).toContain('Console activation link');
      expect(await start.stop()).toBe(0);
    };
    await demoAfter(firstStart, async (run) => {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Demo data in tenant "default", made just now');
      expect(run.stdout).toContain('Start the console with `npm start`');
      expect(Object.keys(signInsOf(run.stdout))).toHaveLength(4);
    });
  });

  it('refuses, in one sentence, a database that holds anything else, and leaves it as it was', async () => {
    const invite = ['operator', 'invite', '--tenant', 'default', '--email', 'pat@example.com', '--role', 'Auditor'];
    await demoAfter(commands(['bootstrap', '--tenant', 'default'], invite), async (refused, url) => {
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
        /^The demo fills only an empty database, or one that a first start has just set up; this one holds \d+ audit events? of work done in tenant "default", so it is left as it is\. Point DATABASE_URL at an empty database for the demo\.$/,
      );
      const users = await query<{ username: string }>(`SELECT username FROM users ORDER BY username`, [], url);
      expect(users.map((u) => u.username)).toEqual(['admin', 'pat']);
    });
    await demoAfter(commands(['bootstrap', '--tenant', 'acme']), async (refused) => {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('this one holds tenant "acme", so it is left as it is.');
    });
  });
});
