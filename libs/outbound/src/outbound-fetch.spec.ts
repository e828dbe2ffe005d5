import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDevCertificate } from '@gatehouse/http';
import { checkDestination, isPublicAddress } from './destination.js';
import { type OutboundRules, outboundFetch } from './outbound-fetch.js';
import { OutboundErrorCode } from './outbound.errors.js';

let server: Server;
let base: string;
let rules: OutboundRules;
let requests = 0;

beforeAll(async () => {
  const files = ensureDevCertificate(mkdtempSync(join(tmpdir(), 'outbound-')));
  server = createServer({ cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) }, (req, res) => {
    requests++;
    if (req.url === '/big') return void res.end(Buffer.alloc(300_000, 0x61));
    if (req.url === '/hang') return; // never answers
    if (req.url === '/away') return void res.writeHead(302, { location: 'https://elsewhere.example/x' }).end();
    if (req.url === '/here') return void res.writeHead(301, { location: '/ok' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, method: req.method }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rules = { privateAllowed: [`${base}/issuer`], extraCa: readFileSync(files.certFile, 'utf8') };
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const get = (path: string, more: object = {}) =>
  outboundFetch({ url: `${base}${path}`, timeoutMs: 2_000, maxBytes: 256 * 1024, sameOriginRedirects: 3, ...more }, rules);

async function refusal(promise: Promise<unknown>): Promise<OutboundErrorCode> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: OutboundErrorCode }).code;
  }
  throw new Error('the call was not refused');
}

describe('outbound requests (SECURITY check 61)', () => {
  it('calls an allowed origin over https with its CA', async () => {
    const response = await get('/ok');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ path: '/ok', method: 'GET' });
  });

  it('refuses a private address that no allow-list names, before any request reaches it', async () => {
    const before = requests;
    const other = { privateAllowed: [], extraCa: rules.extraCa };
    const url = `${base}/ok`;
    expect(await refusal(outboundFetch({ url, timeoutMs: 2_000, maxBytes: 1024 }, other))).toBe(OutboundErrorCode.PrivateAddress);
    const byName = url.replace('127.0.0.1', 'localhost');
    expect(await refusal(outboundFetch({ url: byName, timeoutMs: 2_000, maxBytes: 1024 }, other))).toBe(OutboundErrorCode.PrivateAddress);
    expect(requests).toBe(before);
  });

  it('refuses what is not https, carries credentials or is too long', async () => {
    const call = (url: string) => outboundFetch({ url, timeoutMs: 1_000, maxBytes: 1024 }, rules);
    expect(await refusal(call(base.replace('https', 'http')))).toBe(OutboundErrorCode.NotHttps);
    expect(await refusal(call(base.replace('https://', 'https://user:pw@')))).toBe(OutboundErrorCode.CredentialsInUrl);
    expect(await refusal(call(`${base}/${'a'.repeat(2_000)}`))).toBe(OutboundErrorCode.UrlTooLong);
  });

  it('bounds the answer: an error, or the first bytes when asked to truncate', async () => {
    expect(await refusal(get('/big'))).toBe(OutboundErrorCode.TooLarge);
    const cut = await get('/big', { maxBytes: 64 * 1024, whenTooLarge: 'truncate' });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body.length).toBe(64 * 1024);
  });

  it('gives up on a server that never answers', async () => {
    const started = Date.now();
    expect(await refusal(get('/hang', { timeoutMs: 300 }))).toBe(OutboundErrorCode.Timeout);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('follows redirects within the origin only, and a bounded number of them', async () => {
    expect((await get('/here')).status).toBe(200);
    expect(await refusal(get('/away'))).toBe(OutboundErrorCode.RedirectElsewhere);
    expect(await refusal(get('/loop'))).toBe(OutboundErrorCode.TooManyRedirects);
    expect((await get('/away', { sameOriginRedirects: 0 })).status).toBe(302);
  });
});

describe('configured destinations', () => {
  it('tells public addresses from private, loopback, link-local and mapped ones', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not an address']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
  });

  it('checks a URL and what its host is now', async () => {
    expect((await checkDestination('https://8.8.8.8/hook', rules)).host).toBe('8.8.8.8');
    expect(await refusal(checkDestination('https://127.0.0.1/hook', rules))).toBe(OutboundErrorCode.PrivateAddress);
    expect(await refusal(checkDestination('https://[::1]/hook', rules))).toBe(OutboundErrorCode.PrivateAddress);
    expect((await checkDestination(`${base}/issuer/keys`, rules)).origin).toBe(base);
    expect(await refusal(checkDestination('https://no-such-host.invalid/', rules))).toBe(OutboundErrorCode.Unreachable);
  });
});
