import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT_PATHS, maskUrl } from './redaction.js';

describe('log redaction', () => {
  it('censors secrets wherever a developer may have put them', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      req: { headers: { authorization: 'Basic c2VjcmV0', cookie: 'sid=abc' } },
      body: { client_secret: 'S1', password: 'P1', token: 'T1' },
      client_secret: 'S2',
      secretText: 'S3',
    });
    const text = lines.join('');
    for (const secret of ['c2VjcmV0', 'sid=abc', 'S1', 'P1', 'T1', 'S2', 'S3']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('masks link tokens in paths and secrets in query strings', () => {
    expect(maskUrl('/invitations/abcDEF123?x=1')).toBe('/invitations/[redacted]?x=1');
    expect(maskUrl('/t/acme/console/activate/abcDEF123')).toBe('/t/acme/console/activate/[redacted]');
    expect(maskUrl('/handover/abcDEF123')).toBe('/handover/[redacted]');
    expect(maskUrl('/request-access/confirm/abcDEF123')).toBe('/request-access/confirm/[redacted]');
    expect(maskUrl('/t/oauth2/v2.0/token?client_secret=zzz&a=b')).toBe('/t/oauth2/v2.0/token?client_secret=[redacted]&a=b');
  });

  it('masks link tokens whatever the casing or encoding of the path, as routing finds them', () => {
    expect(maskUrl('/HANDOVER/abcDEF123')).toBe('/HANDOVER/[redacted]');
    expect(maskUrl('/Invitations/abcDEF123/accept?x=1')).toBe('/Invitations/[redacted]?x=1');
    expect(maskUrl('/t/acme/Console/ACTIVATE/abcDEF123')).toBe('/t/acme/Console/ACTIVATE/[redacted]');
    expect(maskUrl('/request-access/Confirm/abcDEF123#x')).toBe('/request-access/Confirm/[redacted]#x');
    expect(maskUrl('/h%61ndover/abcDEF123')).toBe('/h%61ndover/[redacted]');
    expect(maskUrl('/Password-Reset/abcDEF123')).toBe('/Password-Reset/[redacted]');
    expect(maskUrl('/handover/%E0%A4%A/abc')).toBe('/handover/[redacted]');
    expect(maskUrl('/docs/handbook?TOKEN=abc')).toBe('/docs/handbook?TOKEN=[redacted]');
    expect(maskUrl('/handover')).toBe('/handover');
  });

  it('masks a link carried in the query, as the login prompt carries where to go back to', () => {
    expect(maskUrl('/login?returnTo=/invitations/abcDEF123')).toBe('/login?returnTo=/invitations/[redacted]');
    expect(maskUrl('/login?returnTo=%2Finvitations%2FabcDEF123&x=1')).toBe('/login?returnTo=%2Finvitations%2F[redacted]&x=1');
    expect(maskUrl('/login?returnTo=/handover/abc/reveal')).toBe('/login?returnTo=/handover/[redacted]/reveal');
    expect(maskUrl('/login?returnTo=/docs/handbook')).toBe('/login?returnTo=/docs/handbook');
  });
});
