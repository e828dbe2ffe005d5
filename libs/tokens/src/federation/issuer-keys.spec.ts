import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IssuerServer, type TestIssuer } from '../../../../test/support/oidc-issuer.js';
import { IssuerKeys, IssuerUnavailableError } from './issuer-keys.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The rules of fetching an issuer's keys (DESIGN §11, SECURITY 61) against real https issuers, on
 * a clock the test moves: Cache-Control within 5 minutes and 24 hours, an unknown kid refetching
 * at most once a minute, the last good keys through an outage for 24 hours, one fetch at a time,
 * a bounded number of issuers, and no call for a minute after a failure.
 */
describe('IssuerKeys', () => {
  let server: IssuerServer;
  let clock: number;
  let counter = 0;

  const keysOf = (options: { maxIssuers?: number } = {}) =>
    new IssuerKeys({ rules: { privateAllowed: [server.origin], extraCa: server.ca }, now: () => clock, ...options });
  const fresh = async () => server.issuer(`issuer-${++counter}`);
  /** Waits for a background refresh to have reached the issuer. */
  const requestsReach = (issuer: TestIssuer, count: number) => vi.waitFor(() => expect(issuer.requests).toBe(count));

  beforeAll(async () => {
    server = await IssuerServer.start();
  });

  afterAll(() => server.close());

  it('keeps keys as long as Cache-Control says, but at least 5 minutes and at most 24 hours', async () => {
    clock = Date.now();
    const short = await fresh();
    short.keysMaxAge = 10;
    const keys = keysOf();
    await keys.keysFor(short.url, undefined);
    expect(short.requests).toBe(2); // discovery, then the key set
    clock += 4 * MINUTE;
    await keys.keysFor(short.url, undefined);
    expect(short.requests).toBe(2);
    clock += 2 * MINUTE;
    await keys.keysFor(short.url, undefined); // stale: served at once, refreshed behind it
    await requestsReach(short, 4);

    const long = await fresh();
    long.keysMaxAge = 7 * 24 * 3600;
    await keys.keysFor(long.url, undefined);
    clock += 23 * HOUR;
    await keys.keysFor(long.url, undefined);
    expect(long.requests).toBe(2);
    clock += 2 * HOUR;
    await keys.keysFor(long.url, undefined);
    await requestsReach(long, 4);
  });

  it('a kid the set lacks fetches again at most once a minute; the rotated key is found', async () => {
    clock = Date.now();
    const issuer = await fresh();
    const keys = keysOf();
    const first = await keys.keysFor(issuer.url, undefined);
    const rotated = await issuer.rotate();
    expect((await keys.keysFor(issuer.url, rotated.kid)).map((k) => k.kid)).toEqual([rotated.kid]);
    expect(issuer.requests).toBe(4);
    for (let i = 0; i < 50; i++) await keys.keysFor(issuer.url, `random-${i}`);
    expect(issuer.requests).toBe(4);
    clock += MINUTE;
    await keys.keysFor(issuer.url, 'random-after-a-minute');
    expect(issuer.requests).toBe(6);
    expect(first).not.toEqual(await keys.keysFor(issuer.url, undefined));
  });

  it('serves the last good keys through an outage for 24 hours, then refuses', async () => {
    clock = Date.now();
    const issuer = await fresh();
    const keys = keysOf();
    const good = await keys.keysFor(issuer.url, undefined);
    issuer.mode = 'down';
    clock += 2 * HOUR;
    expect(await keys.keysFor(issuer.url, undefined)).toBe(good);
    await requestsReach(issuer, 3); // the refresh behind it failed at the discovery
    clock += 30 * 1000;
    expect(await keys.keysFor(issuer.url, 'unknown')).toBe(good); // a failure backs off: no call yet
    expect(issuer.requests).toBe(3);
    clock += 21 * HOUR; // 23 hours after the keys were fetched
    expect(await keys.keysFor(issuer.url, undefined)).toBe(good);
    clock += 2 * HOUR;
    await expect(keys.keysFor(issuer.url, undefined)).rejects.toBeInstanceOf(IssuerUnavailableError);
    issuer.mode = 'normal';
    clock += MINUTE;
    expect(await keys.keysFor(issuer.url, undefined)).toHaveLength(1);
  });

  it('asks an issuer once however many tokens wait for its keys, and backs off a minute after a failure', async () => {
    clock = Date.now();
    const issuer = await fresh();
    const keys = keysOf();
    const all = await Promise.all(Array.from({ length: 50 }, () => keys.keysFor(issuer.url, undefined)));
    expect(new Set(all).size).toBe(1);
    expect(issuer.requests).toBe(2);
    const broken = await fresh();
    broken.mode = 'down';
    await expect(keys.keysFor(broken.url, undefined)).rejects.toThrow(/could not be reached/);
    for (let i = 0; i < 20; i++) await expect(keys.keysFor(broken.url, undefined)).rejects.toBeInstanceOf(IssuerUnavailableError);
    expect(broken.requests).toBe(1);
    clock += MINUTE;
    broken.mode = 'normal';
    expect(await keys.keysFor(broken.url, undefined)).toHaveLength(1);
  });

  it('remembers a bounded number of issuers, the least recently used forgotten first', async () => {
    clock = Date.now();
    const [a, b, c] = [await fresh(), await fresh(), await fresh()];
    const keys = keysOf({ maxIssuers: 2 });
    await keys.keysFor(a.url, undefined);
    await keys.keysFor(b.url, undefined);
    await keys.keysFor(a.url, undefined);
    await keys.keysFor(c.url, undefined); // b goes
    await keys.keysFor(a.url, undefined);
    expect(a.requests).toBe(2);
    await keys.keysFor(b.url, undefined);
    expect(b.requests).toBe(4);
    expect(keys.fetches).toBe(8);
  });

  it('refuses a discovery document that names another issuer', async () => {
    const issuer = await fresh();
    const keys = keysOf();
    await expect(keys.keysFor(`${issuer.url}/`, undefined)).rejects.toThrow(/names another issuer/);
  });
});
