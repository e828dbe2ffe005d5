import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CertificateEnv } from './support/certificate-env.js';
import { type ClientCertificate, makeAssertion, makeCertificate } from './support/client-certificates.js';

/** Every bad client assertion refused with Entra's code (SECURITY 51); the good ones: client-certificates. */
describe('certificate credentials: bad assertions (SECURITY 51)', () => {
  const env = new CertificateEnv();
  const { tokenEndpoint, adminCall, withAssertion, logs } = env;
  let authority: string;
  let clientId: string;
  let otherClientId: string;
  let certificate: ClientCertificate;
  let otherCertificate: ClientCertificate;
  beforeAll(() => void ({ authority, clientId, otherClientId, certificate, otherCertificate } = env));
  beforeAll(() => env.registerCertificates());

    const audience = () => tokenEndpoint();

    it('alg none and HS256 keyed with the certificate → 5002738', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', x5t: certificate.x5t })).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({
          iss: clientId,
          sub: clientId,
          aud: audience(),
          exp: Math.floor(Date.now() / 1000) + 300,
          jti: 'none-1',
        }),
      ).toString('base64url');
      expect(await withAssertion(`${header}.${payload}.`)).toMatchObject({ status: 401, code: 5002738 });
      const hmac = await new SignJWT({ iss: clientId, sub: clientId, aud: audience(), jti: 'hs-1' })
        .setProtectedHeader({ alg: 'HS256', x5t: certificate.x5t })
        .setExpirationTime('5m')
        .sign(createSecretKey(Buffer.from(certificate.pem)));
      expect(await withAssertion(hmac)).toMatchObject({ status: 401, code: 5002738 });
    });

    it('wrong audience → 700023; another tenant or a path variant is not this endpoint', async () => {
      for (const aud of [
        'https://login.microsoftonline.com/common/oauth2/v2.0/token',
        `${authority}/v2.0`,
        `${tokenEndpoint()}/`,
      ]) {
        expect(await withAssertion(await makeAssertion(certificate, { clientId, audience: aud })), aud).toMatchObject({
          status: 401,
          code: 700023,
        });
      }
    });

    it('expired, not yet valid, or day-long → 700024', async () => {
      const expired = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        issuedSecondsAgo: 1200,
        lifetimeSeconds: 300,
      });
      const future = await makeAssertion(certificate, { clientId, audience: audience(), issuedSecondsAgo: -1200 });
      const dayLong = await makeAssertion(certificate, { clientId, audience: audience(), lifetimeSeconds: 86_400 });
      for (const assertion of [expired, future, dayLong]) {
        expect(await withAssertion(assertion)).toMatchObject({ status: 401, code: 700024 });
      }
    });

    it("another client's certificate, a tampered signature, no certificate named → 700027 / 5002723", async () => {
      const borrowed = await makeAssertion(otherCertificate, {
        clientId,
        audience: audience(),
        header: { x5t: otherCertificate.x5t },
      });
      expect(await withAssertion(borrowed)).toMatchObject({ status: 401, code: 700027 });
      const forged = await makeAssertion(otherCertificate, {
        clientId,
        audience: audience(),
        header: { x5t: certificate.x5t },
      });
      expect(await withAssertion(forged)).toMatchObject({ status: 401, code: 700027 });
      const anonymous = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        header: { x5t: undefined },
      });
      expect(await withAssertion(anonymous)).toMatchObject({ status: 401, code: 5002723 });
    });

    it('no jti → 90014; iss ≠ sub or ≠ client_id → 700021; malformed or a control character in jti → 50027; secret and assertion both → 90014', async () => {
      expect(
        await withAssertion(await makeAssertion(certificate, { clientId, audience: audience(), jti: null })),
      ).toMatchObject({
        status: 400,
        code: 90014,
      });
      const mismatch = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        claims: { sub: otherClientId },
      });
      expect(await withAssertion(mismatch)).toMatchObject({ status: 401, code: 700021 });
      const forOther = await makeAssertion(certificate, { clientId: otherClientId, audience: audience() });
      expect(await withAssertion(forOther)).toMatchObject({ status: 401, code: 700021 });
      expect(await withAssertion('not.a.jwt')).toMatchObject({ status: 400, code: 50027 });
      const controlJti = await makeAssertion(certificate, { clientId, audience: audience(), jti: 'a\u0000b' });
      expect(await withAssertion(controlJti)).toMatchObject({ status: 400, code: 50027 });
      const good = await makeAssertion(certificate, { clientId, audience: audience() });
      expect(await withAssertion(good, authority, { client_secret: 'x' })).toMatchObject({ status: 400, code: 90014 });
    });

    it('an expired registered certificate → 7000274', async () => {
      const aging = makeCertificate({ notAfter: new Date(Date.now() + 2_000) });
      expect((await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: aging.pem })).status).toBe(
        201,
      );
      // Accepted until it expires, then refused: polled, not slept past.
      const attempt = async () => withAssertion(await makeAssertion(aging, { clientId, audience: audience() }));
      let answer = await attempt();
      for (const deadline = Date.now() + 10_000; answer.status === 200 && Date.now() < deadline; answer = await attempt())
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answer).toMatchObject({
        status: 401,
        code: 7000274,
      });
    });

  it('logs hold no private key and no assertion', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.text).not.toContain('PRIVATE KEY');
    expect(logs.text).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\.eyJ/);
  });
});
