import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Secret, TOTP } from 'otpauth';
import { PROMPT_END, type Provisioned, type RunningServer, repoRoot, round, smoke } from './harness.js';

/** The console's origin as the bench admin app knows it (`ADMIN_PUBLIC_URL` of bench-config). */
const CONSOLE_ORIGIN = 'http://localhost:3001';
const PASSWORD = 'amber lanterns over quiet harbours';

export interface ConsolePageFigure {
  path: string;
  p95Ms: number | null;
  p99Ms: number | null;
  requestsPerSec: number;
  status: number;
}

/** A browser's cookie jar, reduced to what one console session needs. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** What a page said, for an error: its error texts, or the start of its main content. */
const said = (page: string) =>
  (page.match(/id="[^"]*-error"[^>]*>[^<]*/g) ?? [page.split('<main')[1] ?? page])
    .join(' ')
    .replace(/<[^>]+>|\s+/g, ' ')
    .slice(0, 300);

const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

async function page(jar: Jar, url: string, form?: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: CONSOLE_ORIGIN } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
  jar.take(response);
  return { status: response.status, text: await response.text() };
}

/**
 * A signed-in Administrator's console cookie, the way a person gets one: `operator invite` prints
 * the activation link, the link sets a password, the enrolment page gives the TOTP secret, a code
 * from it finishes the sign-in.
 */
export async function consoleSession(p: Provisioned, admin: RunningServer): Promise<{ cookie: string; base: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(repoRoot, 'dist/apps/cli/src/main.js'),
      'operator',
      'invite',
      '--tenant',
      p.tenantId,
      '--email',
      'console-bench@example.com',
      '--role',
      'Administrator',
      '--json',
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: p.databaseUrl,
        SECRET_PEPPER: p.pepper.toString('hex'),
        KEY_ENCRYPTION_KEY: p.kek.toString('hex'),
        ADMIN_PUBLIC_URL: CONSOLE_ORIGIN,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'gatehouse-bench-cli-')),
        LOG_LEVEL: 'warn',
      },
    },
  );
  const { activationUrl } = JSON.parse(stdout) as { activationUrl: string };
  const jar = new Jar();
  const activation = activationUrl.replace(CONSOLE_ORIGIN, admin.url);
  // With several tenants on the server the console lives under /t/{tenant}/console.
  const base = new URL(activationUrl).pathname.replace(/\/activate\/.*$/, '');
  const form = await page(jar, activation);
  const set = await page(jar, activation, {
    _csrf: csrfOf(form.text),
    newPassword: PASSWORD,
    confirmPassword: PASSWORD,
  });
  if (set.status !== 303) throw new Error(`console activation answered ${set.status}: ${said(set.text)}`);
  const enrol = await page(jar, `${admin.url}${base}/enroll`);
  const secret = /secret=([A-Z2-7]+)/.exec(enrol.text)?.[1] ?? /data-secret="([A-Z2-7]+)"/.exec(enrol.text)?.[1];
  if (!secret) throw new Error('the enrolment page showed no TOTP secret');
  const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  const done = await page(jar, `${admin.url}${base}/enroll`, { _csrf: csrfOf(enrol.text), code });
  if (done.status !== 200) throw new Error(`console enrolment answered ${done.status}`);
  const overview = await page(jar, `${admin.url}${base}`);
  if (overview.status !== 200) throw new Error(`the console's Overview answered ${overview.status} after sign-in`);
  return { cookie: jar.header(), base };
}

/** p95 and p99 of one console page under 4 connections: 1 s warm-up, then 5 s (in smoke: 40 requests). */
export async function consolePageFigure(
  admin: RunningServer,
  cookie: string,
  path: string,
): Promise<ConsolePageFigure> {
  const first = await fetch(admin.url + path, { headers: { cookie }, redirect: 'manual' });
  await first.arrayBuffer();
  if (first.status !== 200) return { path, p95Ms: null, p99Ms: null, requestsPerSec: 0, status: first.status };
  const options = { url: admin.url + path, headers: { cookie }, connections: 4, timeout: 30 };
  if (!smoke) await autocannon({ ...options, duration: 1 });
  const run = await autocannon({ ...options, ...(smoke ? { amount: 40, ...PROMPT_END } : { duration: 5 }) });
  const bad = run.non2xx + run.errors + run.timeouts;
  // autocannon reports p90 and p97.5 around p95: the upper one is quoted, so the figure never flatters.
  const latency = run.latency as unknown as Record<string, number>;
  return {
    path,
    p95Ms: bad > 0 ? null : round(latency.p97_5 ?? run.latency.p99, 2),
    p99Ms: bad > 0 ? null : round(run.latency.p99, 2),
    requestsPerSec: round(run.requests.total / Math.max(run.duration, 0.001), 0),
    status: bad > 0 ? 500 : 200,
  };
}

/** The console pages the issue names, over the scale data: Users (plain and searched), Clients, Audit (plain and filtered). */
export async function measureConsolePages(
  p: Provisioned,
  admin: RunningServer,
  search: string,
): Promise<ConsolePageFigure[]> {
  const { cookie, base } = await consoleSession(p, admin);
  const paths = [
    `${base}/users`,
    `${base}/users?search=${encodeURIComponent(search)}`,
    `${base}/clients`,
    `${base}/clients?state=awaiting_scopes`,
    `${base}/audit`,
    `${base}/audit?action=${encodeURIComponent('client.scopes.set')}`,
  ];
  const figures: ConsolePageFigure[] = [];
  for (const path of paths) {
    figures.push(await consolePageFigure(admin, cookie, path));
    const f = figures.at(-1)!;
    console.log(`  scale: console ${path.slice(0, 60)}: p97.5 ${f.p95Ms} ms, p99 ${f.p99Ms} ms (status ${f.status})`);
  }
  return figures;
}
