import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK } from 'jose';
import { ensureDevCertificate } from '@gatehouse/http';

/**
 * The issuer of the benchmark's federated assertions: an https server (a development certificate
 * of its own, trusted by the Gatehouse server through OUTBOUND_CA_FILE) publishing discovery and an
 * RSA key, minting Kubernetes-shaped tokens an hour long — a pod sends the same projected token
 * until the kubelet renews it. Counts the requests Gatehouse makes to it.
 */
export class BenchIssuer {
  requests = 0;
  url: string;
  /** The certificate Gatehouse must trust, as a file. */
  caFile: string;
  private server: Server;
  private readonly kid = randomUUID();
  private readonly key = generateKeyPairSync('rsa', { modulusLength: 2048 });

  async start(): Promise<this> {
    const files = ensureDevCertificate(mkdtempSync(join(tmpdir(), 'bench-issuer-')));
    this.caFile = files.certFile;
    const jwk = { ...(await exportJWK(this.key.publicKey)), kid: this.kid, use: 'sig', alg: 'RS256' };
    this.server = createServer({ cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) }, (req, res) => {
      this.requests++;
      const body =
        req.url === '/cluster/.well-known/openid-configuration'
          ? { issuer: this.url, jwks_uri: `${this.url}/keys` }
          : req.url === '/cluster/keys'
            ? { keys: [jwk] }
            : null;
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `https://localhost:${(this.server.address() as AddressInfo).port}/cluster`;
    return this;
  }

  /** A projected service account token for `api://AzureADTokenExchange`, valid for an hour. */
  token(subject: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub: subject, aud: ['api://AzureADTokenExchange'], 'kubernetes.io': { namespace: 'bench' } })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.kid })
      .setIssuer(this.url)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
