import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ComposeStack, getFrom, postFrom, sleep, until } from './support/compose-stack.js';

/**
 * docker-compose.yml started as it describes it (test/support/compose-stack.ts): what the deployed
 * topology promises — replicas that agree at once, workers that deliver once, a rolling restart
 * nobody notices, a proxy that passes on who is calling.
 */
describe('the compose topology: proxy, identity × 2, admin, worker × 2 on one PostgreSQL', () => {
  const stack = new ComposeStack();

  beforeAll(() => stack.start(), 120_000);
  beforeEach(() => stack.expectAllRunning());
  afterAll(() => stack.stop(), 60_000);

  it('the compose file names what the test runs: two identity replicas behind the proxy, two workers', () => {
    expect(stack.byService('identity')).toHaveLength(2);
    expect(stack.byService('worker')).toHaveLength(2);
    expect(stack.byService('identity')[0]!.env.TRUST_PROXY).toBe('127.0.0.1');
    expect(stack.compose.services.migrate!.command).toEqual(['migrate']);
  });

  it('a disabled client and a revoked secret are refused by both identity replicas within 1 s', async () => {
    const { client, secret, fields } = await stack.activeClient('orders', 'Orders.Read');
    const direct = stack.byService('identity').map((r) => `http://127.0.0.1:${r.port}`);
    for (const base of direct) expect((await stack.token(base, fields)).status).toBe(200); // both replicas cache it

    // Refused = a 4xx answer (invalid_client or unauthorized_client, whichever the mapping says).
    const refusedEverywhere = async () => {
      const started = Date.now();
      await until(
        'refusal on both replicas',
        async () => {
          const statuses = await Promise.all(direct.map(async (base) => (await stack.token(base, fields)).status));
          return statuses.every((s) => s >= 400 && s < 500) ? true : undefined;
        },
        5_000,
      );
      return Date.now() - started;
    };
    await stack.admin('POST', `/clients/${client.clientId}/disable`);
    const disabledMs = await refusedEverywhere();
    await stack.admin('POST', `/clients/${client.clientId}/enable`);
    for (const base of direct)
      await until('enabled again', async () => ((await stack.token(base, fields)).status === 200 ? true : undefined), 5_000);
    await stack.admin('DELETE', `/clients/${client.clientId}/secrets/${secret.keyId}`);
    const revokedMs = await refusedEverywhere();
    console.log(
      `[topology] refused on both replicas after: client disabled ${disabledMs} ms, secret revoked ${revokedMs} ms`,
    );
    expect(disabledMs).toBeLessThan(1_000);
    expect(revokedMs).toBeLessThan(1_000);
  });

  it('200 invitations with two workers: each mail delivered exactly once', async () => {
    await stack.admin('POST', '/doc-sections', { slug: 'guide', title: 'Guide', body: 'x' });
    const users = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.admin('POST', '/users', {
          username: `reader${i}`,
          email: `reader${i}@example.com`,
          displayName: `Reader ${i}`,
        }),
      ),
    );
    const before = stack.sink.messages.length;
    for (let round = 0; round < 10; round++) {
      await Promise.all(users.map((user) => stack.admin('POST', '/invitations', { userId: user.id, sections: ['guide'] })));
    }
    const invitations = await until(
      '200 invitation mails',
      async () => {
        const mails = stack.sink.messages.slice(before).filter((m) => m.subject.includes('invited'));
        return mails.length >= 200 ? mails : undefined;
      },
      60_000,
    );
    await sleep(1_000); // a duplicate would arrive now
    const all = stack.sink.messages.slice(before).filter((m) => m.subject.includes('invited'));
    expect(all).toHaveLength(200);
    expect(new Set(all.map((m) => m.parsed.messageId)).size).toBe(200);
    expect(invitations).toHaveLength(200);
  });

  it('one identity replica restarted under ~200 token requests/s through the proxy: no request fails', async () => {
    const { fields } = await stack.activeClient('stock', 'Stock.Read');
    const failures: string[] = [];
    let sent = 0;
    let running = true;
    const inFlight = new Set<Promise<void>>();
    const load = (async () => {
      for (let tick = 0; running; tick++) {
        const due = Date.now() + 50;
        for (let i = 0; i < 11; i++) {
          sent++;
          const request: Promise<void> = stack.token(stack.proxyUrl, fields)
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
    const [target] = stack.byService('identity');
    const started = Date.now();
    await stack.restart(target!);
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
      const page = await getFrom(from, `${stack.proxyUrl}/login`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const cookie = page.cookies.map((c) => c.split(';')[0]).join('; ');
      return postFrom(
        from,
        `${stack.proxyUrl}/login`,
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
  }, 90_000); // CPU-bound (password hashing, or a browser), and slower while other test files share the two cores
});
