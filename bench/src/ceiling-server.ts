import { createHmac, createSecretKey, generateKeyPairSync, randomUUID, sign, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { derToJose } from 'ecdsa-sig-formatter';
import { exportJWK } from 'jose';
import { type Algorithm, announceReady, exitOnSignal, requiredEnv } from './protocol.js';

/**
 * The ceiling: only the work a client credentials token request cannot avoid. Parse the form,
 * find the client in a Map, HMAC-SHA256 the secret and compare in constant time, sign the same
 * claims with the same algorithm (node:crypto, no JWT library), answer JSON. No framework, no database, no logging.
 */
const port = Number(requiredEnv('PORT'));
const alg = requiredEnv('ALG') as Algorithm;
// A KeyObject, as Gatehouse's SecretHasher: a Buffer key is imported again on every HMAC (slow on Node 24).
const pepper = createSecretKey(Buffer.from(requiredEnv('PEPPER'), 'hex'));
const issuer = `http://127.0.0.1:${port}/ceiling/v2.0`;
const tenantId = randomUUID();
const audience = randomUUID();
const kid = randomUUID();

const { privateKey, publicKey } =
  alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
// Signed with node:crypto directly, as the cheapest correct JWS: header encoded once, one sign call.
// ES256 on Node 24 is cheaper signed in DER and converted (48 vs 24 µs; see BENCHMARKS.md), as Gatehouse does there.
const header = Buffer.from(JSON.stringify({ alg, kid, typ: 'JWT' })).toString('base64url');
const der = alg === 'ES256' && Number(process.versions.node.split('.')[0]) >= 24;
const signingKey = alg === 'ES256' && !der ? { key: privateKey, dsaEncoding: 'ieee-p1363' as const } : privateKey;
const signature = (input: string) => {
  const signed = sign('sha256', Buffer.from(input), signingKey);
  return der ? derToJose(signed, 'ES256') : signed.toString('base64url');
};
const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }] });

interface Client {
  id: string;
  clientId: string;
  hash: Buffer;
  roles: string[];
}
const hash = (secret: string) => createHmac('sha256', pepper).update(secret, 'utf8').digest();
const clients = new Map<string, Client>();
const clientId = requiredEnv('CLIENT_ID');
clients.set(clientId, { id: randomUUID(), clientId, hash: hash(requiredEnv('CLIENT_SECRET')), roles: [requiredEnv('SCOPE')] });

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function token(form: URLSearchParams): Promise<[number, string]> {
  if (form.get('grant_type') !== 'client_credentials') return [400, '{"error":"unsupported_grant_type"}'];
  const client = clients.get(form.get('client_id') ?? '');
  const presented = hash(form.get('client_secret') ?? '');
  if (!client || !timingSafeEqual(presented, client.hash)) return [401, '{"error":"invalid_client"}'];
  const iat = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer,
    aud: audience,
    sub: client.id,
    oid: client.id,
    client_id: client.clientId,
    azp: client.clientId,
    azpacr: '1',
    tid: tenantId,
    roles: client.roles,
    scope: client.roles.join(' '),
    idtyp: 'app',
    ver: '2.0',
    iat,
    nbf: iat,
    exp: iat + 3599,
    jti: randomUUID(),
  };
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const accessToken = `${input}.${signature(input)}`;
  return [200, JSON.stringify({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken })];
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' && req.url === '/jwks') return send(res, 200, jwks);
  if (req.method !== 'POST' || req.url !== '/token') return send(res, 404, '{"error":"not_found"}');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    token(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))).then(
      ([status, body]) => send(res, status, body),
      () => send(res, 500, '{"error":"server_error"}'),
    );
  });
}

const server = createServer(handle);
server.listen(port, '127.0.0.1', announceReady);
exitOnSignal(() => new Promise<void>((resolve) => server.close(() => resolve())));
