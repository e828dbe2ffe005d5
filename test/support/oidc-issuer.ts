import { type KeyObject, generateKeyPairSync, randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK } from 'jose';
import { generate } from 'selfsigned';

/** How an issuer answers: as it should, or as the outbound rules must survive. */
export type IssuerMode = 'normal' | 'down' | 'redirect' | 'huge' | 'hang';

interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

/** A test CA and a server certificate it signed for localhost and 127.0.0.1. */
async function certificates(): Promise<{ ca: string; cert: string; key: string }> {
  const ca = await generate([{ name: 'commonName', value: 'Gatehouse test issuers CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { ca: ca.cert, cert: server.cert, key: server.private };
}

/**
 * One OpenID issuer at `{server}/{name}`: discovery, a JWKS with its current keys, and tokens it
 * mints — shaped like GitHub Actions' or a Kubernetes service account's. It can rotate its key, go
 * down, redirect elsewhere, answer 10 MB or never answer; it counts the requests it receives.
 */
export class TestIssuer {
  mode: IssuerMode = 'normal';
  /** Requests received (discovery and keys). */
  requests = 0;
  keysMaxAge = 3600;
  private keys: SigningKey[] = [];
  /** The GitHub Actions job whose token `/actions-token` hands out (see {@link actionsJob}). */
  private job: { repository: string; environment: string; requestToken: string } | null = null;

  constructor(
    readonly url: string,
    private readonly alg: 'RS256' | 'ES256' = 'RS256',
  ) {}

  async init(): Promise<this> {
    await this.rotate();
    return this;
  }

  /** A new signing key replaces the published ones (what an issuer's rotation does, seen from outside). */
  async rotate(): Promise<SigningKey> {
    const { privateKey, publicKey } =
      this.alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomUUID();
    const key = { kid, alg: this.alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: this.alg } };
    this.keys = [key];
    return key;
  }

  /** A token of this issuer; `key` signs instead of the published key (one the issuer does not publish). */
  async mint(
    claims: Record<string, unknown>,
    options: { lifetimeSeconds?: number; issuedSecondsAgo?: number; key?: KeyObject; kid?: string; header?: Record<string, unknown> } = {},
  ): Promise<string> {
    const current = this.keys[0]!;
    const now = Math.floor(Date.now() / 1000) - (options.issuedSecondsAgo ?? 0);
    return new SignJWT({ jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: current.alg, typ: 'JWT', kid: options.kid ?? current.kid, ...options.header })
      .setIssuer(this.url)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + (options.lifetimeSeconds ?? 300))
      .sign(options.key ?? current.privateKey);
  }

  /** What a GitHub Actions job's `ACTIONS_ID_TOKEN_REQUEST_URL` hands out (audience api://AzureADTokenExchange). */
  github(repository: string, ref = 'refs/heads/main', extra: Record<string, unknown> = {}): Promise<string> {
    const [owner] = repository.split('/');
    const sub = typeof extra.environment === 'string' ? `repo:${repository}:environment:${extra.environment}` : `repo:${repository}:ref:${ref}`;
    return this.mint({
      sub,
      aud: 'api://AzureADTokenExchange',
      ref,
      ref_type: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
      repository,
      repository_owner: owner,
      event_name: 'push',
      job_workflow_ref: `${repository}/.github/workflows/deploy.yml@${ref}`,
      runner_environment: 'github-hosted',
      ...extra,
    });
  }

  /** A projected service account token (`serviceAccountToken` with audience api://AzureADTokenExchange). */
  kubernetes(namespace: string, serviceAccount: string, options: { audience?: string; lifetimeSeconds?: number } = {}): Promise<string> {
    return this.mint(
      {
        sub: `system:serviceaccount:${namespace}:${serviceAccount}`,
        aud: [options.audience ?? 'api://AzureADTokenExchange'],
        'kubernetes.io': { namespace, serviceaccount: { name: serviceAccount, uid: randomUUID() }, pod: { name: `${serviceAccount}-7d4b9`, uid: randomUUID() } },
      },
      { lifetimeSeconds: options.lifetimeSeconds ?? 3600 },
    );
  }

  /**
   * GitHub's side of a job: `ACTIONS_ID_TOKEN_REQUEST_URL` (with `&audience=`) answers the job's
   * token, given `ACTIONS_ID_TOKEN_REQUEST_TOKEN` as a bearer token. Not counted among the requests
   * Gatehouse makes.
   */
  actionsJob(repository: string, environment: string): { requestUrl: string; requestToken: string } {
    this.job = { repository, environment, requestToken: randomUUID() };
    return { requestUrl: `${this.url}/actions-token?api-version=2.0`, requestToken: this.job.requestToken };
  }

  private async actionsToken(req: IncomingMessage, query: URLSearchParams, res: ServerResponse): Promise<void> {
    if (!this.job || req.headers.authorization !== `bearer ${this.job.requestToken}`) return void res.writeHead(401).end();
    const value = await this.github(this.job.repository, 'refs/heads/main', {
      environment: this.job.environment,
      aud: query.get('audience') ?? `https://github.com/${this.job.repository.split('/')[0]}`,
    });
    json(res, { count: 1, value });
  }

  handle(path: string, res: ServerResponse, req?: IncomingMessage, query = new URLSearchParams()): void {
    if (path === '/actions-token' && req) return void this.actionsToken(req, query, res);
    this.requests++;
    if (this.mode === 'hang') return;
    if (this.mode === 'down') return void res.destroy();
    if (this.mode === 'redirect') return void res.writeHead(302, { location: `https://elsewhere.example${path}` }).end();
    if (this.mode === 'huge') return void res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(10 * 1024 * 1024, 0x20));
    if (path === '/.well-known/openid-configuration') return json(res, { issuer: this.url, jwks_uri: `${this.url}/keys`, id_token_signing_alg_values_supported: [this.alg] });
    if (path === '/keys') return json(res, { keys: this.keys.map((k) => k.jwk) }, { 'cache-control': `public, max-age=${this.keysMaxAge}` });
    res.writeHead(404).end();
  }
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * An https server (its own test CA) hosting issuers by path: `https://localhost:{port}/{name}`. The
 * same server reached as `https://127.0.0.1:{port}` is another origin: a private address that an
 * allow-list naming localhost does not name.
 */
export class IssuerServer {
  readonly issuers = new Map<string, TestIssuer>();
  private server: Server;
  origin: string;
  ca: string;

  static async start(): Promise<IssuerServer> {
    const self = new IssuerServer();
    const tls = await certificates();
    self.ca = tls.ca;
    self.server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => self.route(req, res));
    await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
    self.origin = `https://localhost:${(self.server.address() as AddressInfo).port}`;
    return self;
  }

  /** An issuer at `{origin}/{name}` (or on another origin of this server, e.g. `https://127.0.0.1:{port}`). */
  async issuer(name: string, options: { origin?: string; alg?: 'RS256' | 'ES256' } = {}): Promise<TestIssuer> {
    const issuer = await new TestIssuer(`${options.origin ?? this.origin}/${name}`, options.alg).init();
    this.issuers.set(name, issuer);
    return issuer;
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const [pathname, search] = (req.url ?? '').split('?');
    const [, name, ...rest] = pathname!.split('/');
    const issuer = this.issuers.get(name ?? '');
    if (!issuer) return void res.writeHead(404).end();
    issuer.handle(`/${rest.join('/')}`, res, req, new URLSearchParams(search ?? ''));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
