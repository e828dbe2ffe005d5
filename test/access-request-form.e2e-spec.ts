import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_REQUEST_LIMIT } from '@gatehouse/requests';
import { createWorker } from '../apps/worker/src/worker.app.js';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

const HOUR = 3_600_000;

const formFields = (email: string) => ({
  requesterName: 'Robin Requester',
  requesterEmail: email,
  organisation: 'Partner Ltd',
  wantsAccount: 'yes',
  documentation: 'The API guide',
  reason: 'Integration work',
});

/** The public request form's abuse limits, its silence about who is known, and the 24 hours to confirm. */
describe('public request form: abuse limits, enumeration, expiry', () => {
  const apps = new AccessApps();
  let worker: INestApplicationContext;
  let contact: OperatorFixture;

  const submit = async (source: string, fields: Record<string, string>) =>
    (await apps.visit('/request-access', source)).post(fields);
  const requestsOf = (where: string) => apps.count(`SELECT count(*)::int AS n FROM access_requests WHERE ${where}`);
  const snapshot = () =>
    Promise.all(
      ['access_requests', 'emails', 'audit_events'].map((t) => apps.count(`SELECT count(*)::int AS n FROM ${t}`)),
    );

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'], logLevel: 'warn' });
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    const intervals = { keyRotation: HOUR, outboxDelivery: HOUR, secretExpiryWarning: HOUR, accessRequestExpiry: 200 };
    worker = await createWorker({ config: apps.config, jobs: { intervals } });
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await apps.stop();
  });

  it('a filled honeypot stores nothing; at most three open requests per address; every answer alike', async () => {
    const bot = await submit('198.51.100.1', { ...formFields('bot@partner.example'), website: 'http://spam.example' });
    expect([bot.status, bot.headers.location]).toEqual([303, '/request-access/sent']);
    expect(await requestsOf(`requester_email = 'bot@partner.example'`)).toBe(0);
    const answers = [];
    const addresses = ['busy@partner.example', 'Busy@Partner.example', 'busy@partner.example', 'BUSY@partner.example'];
    for (const [i, email] of addresses.entries()) {
      answers.push(await submit(`198.51.100.${10 + i}`, { ...formFields(email), reason: `Integration work, part ${i + 1}` }));
    }
    expect(answers.map((a) => [a.status, a.headers.location, a.text])).toEqual(
      Array(4).fill([303, '/request-access/sent', bot.text]),
    );
    expect(await requestsOf(`requester_email_normalized = 'busy@partner.example'`)).toBe(3);
    expect(
      await apps.count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'access_request.refused'`),
    ).toBe(1);
  });

  it('the very same form sent again (a double click, a reload, Back and send) stores and mails one request, and answers alike', async () => {
    const mails = () => apps.count(`SELECT count(*)::int AS n FROM emails WHERE to_address = 'twice@partner.example'`);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await submit('198.51.100.40', formFields('twice@partner.example')));
    expect(new Set(answers.map((a) => `${a.status} ${a.headers.location} ${a.text}`)).size).toBe(1);
    expect(await requestsOf(`requester_email = 'twice@partner.example'`)).toBe(1);
    expect(await mails()).toBe(1);
    // Another request from the same person (other words) is a request of its own.
    await submit('198.51.100.40', { ...formFields('twice@partner.example'), reason: 'A second project' });
    expect(await requestsOf(`requester_email = 'twice@partner.example'`)).toBe(2);
    expect(await mails()).toBe(2);
  });

  it(`one source address may send ${SOURCE_REQUEST_LIMIT} requests an hour, then 429 with Retry-After`, async () => {
    for (let i = 0; i < SOURCE_REQUEST_LIMIT; i++) {
      expect((await submit('198.51.100.99', formFields(`flood${i}@partner.example`))).status).toBe(303);
    }
    const refused = await submit('198.51.100.99', formFields('flood-last@partner.example'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many requests from your network');
    expect((await submit('198.51.100.98', formFields('neighbour@partner.example'))).status).toBe(303);
    expect(await requestsOf(`requester_email LIKE 'flood%'`)).toBe(SOURCE_REQUEST_LIMIT);
  });

  it('refuses a CR/LF in an address (the message beside the field) and a post without its CSRF token; stores nothing', async () => {
    const before = await snapshot();
    const res = await submit('198.51.100.50', formFields('crlf@partner.example\r\nBcc: all@example.com'));
    expect(res.status).toBe(400);
    expect(res.text).toContain('id="requester-email-error"');
    expect(res.text).toContain('aria-invalid="true"');
    const forged = await request(apps.identity.getHttpServer())
      .post('/request-access')
      .set('Origin', apps.publicUrl)
      .type('form')
      .send(formFields('forged@partner.example'));
    expect(forged.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('never tells whether an address is known: same answer, same timing within noise', async () => {
    const rounds = 20;
    for (let i = 0; i < rounds; i++) await apps.fixtures.operator(apps.tenant, [], `known${i}`);
    const bodies = new Set<string>();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    /** One measurement: paired rounds (both kinds back to back) cancel the drift of a busy machine's load. */
    async function measure(attempt: number): Promise<{ typical: number; gap: number }> {
      const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
      for (let i = 0; i < rounds; i++) {
        for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
          const { post } = await apps.visit('/request-access', `203.0.113.${kind === 'known' ? i : 100 + i}`);
          const started = performance.now();
          const res = await post({ ...formFields(`${kind}${i}@example.com`), reason: `Integration work, try ${attempt}` });
          timings[kind].push(performance.now() - started);
          expect([res.status, res.headers.location]).toEqual([303, '/request-access/sent']);
          bodies.add(res.text);
        }
      }
      const typical = median([...timings.known, ...timings.unknown]);
      return { typical, gap: median(timings.known.map((known, i) => known - timings.unknown[i]!)) };
    }
    // Other test files share the machine's two cores: a gap is measured again (at most three times)
    // before it counts; a real difference between known and unknown addresses shows every time.
    let measured = await measure(1);
    for (let attempt = 2; attempt <= 3 && Math.abs(measured.gap) >= Math.max(10, 0.3 * measured.typical); attempt++) {
      measured = await measure(attempt);
    }
    if (process.env.SHOW_TIMINGS) console.log(`median ${measured.typical.toFixed(1)} ms, median paired gap ${measured.gap.toFixed(1)} ms`);
    expect(bodies.size).toBe(1);
    expect(Math.abs(measured.gap)).toBeLessThan(Math.max(10, 0.3 * measured.typical));
  });

  it('an unconfirmed request expires after 24 hours: its link is dead at once, the worker marks it expired', async () => {
    expect((await submit('198.51.100.60', formFields('late@partner.example'))).status).toBe(303);
    const [mail] = (await apps.deliver()).filter((m) => m.envelopeTo.includes('late@partner.example'));
    const link = /\/request-access\/confirm\/[A-Za-z0-9_-]+/.exec(mail!.text)![0];
    const [{ id }] = await apps.dataSource.query(
      `WITH u AS (UPDATE access_requests SET confirm_expires_at = now() - interval '1 second'
                   WHERE requester_email = 'late@partner.example' RETURNING id)
       SELECT id FROM u`,
    );
    const visit = await apps.visit(link);
    expect(visit.page.status).toBe(410);
    expect(visit.page.text).toContain('not confirmed within 24 hours');
    expect((await apps.call('get', `/access-requests/${id}`, contact.token)).body.status).toBe('expired');
    const deadline = Date.now() + 10_000;
    let status = 'unverified';
    while (status !== 'expired' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [{ status }] = await apps.dataSource.query(`SELECT status FROM access_requests WHERE id = $1`, [id]);
    }
    expect(status).toBe('expired');
    const events = await apps.dataSource.query(
      `SELECT actor_type FROM audit_events WHERE action = 'access_request.expired' AND target_id = $1`,
      [id],
    );
    expect(events).toEqual([{ actor_type: 'system' }]);
    expect((await visit.post()).status).toBe(410);
    const view = (await apps.call('get', `/access-requests/${id}`, contact.token)).body;
    expect(view).toMatchObject({ status: 'expired', confirmedAt: null });
  });
});
