import { createRemoteJWKSet, jwtVerify } from 'jose';
import { SecretHasher, secretHint } from '@gatehouse/crypto';
import type { RunningServer, Target } from './harness.js';
import { adminGet } from './scale-admin.js';
import { clientIdentity, tokenBody, withClient } from './scale-data.js';

/**
 * The generated rows are what the API writes: a generated client is compared column by column
 * with the client the real services created in the same tenant (state, grants, secret row: hint,
 * hash length and value under the pepper, expiry, revocation), and it gets a token whose claims
 * name it. Throws on any difference.
 */
export async function checkGeneratedClients(
  url: string,
  options: { tenantId: string; seed: string; pepper: Buffer; apiClientId: string; count: number },
): Promise<string[]> {
  return withClient(url, async (db) => {
    const checked: string[] = [];
    const read = async (clientId: string) => {
      const { rows } = await db.query(
        `SELECT c.id, c.tenant_id, c.state, c.owner_user_id, (c.contact_email IS NOT NULL) AS has_contact,
                s.hint, s.secret_hash, octet_length(s.secret_hash) AS hash_bytes, s.revoked_at, s.expires_at > now() AS valid,
                s.tenant_id AS secret_tenant, (SELECT array_agg(g.scope_id ORDER BY g.scope_id) FROM client_scope_grants g WHERE g.api_client_id = c.id) AS scopes,
                (SELECT array_agg(DISTINCT g.tenant_id) FROM client_scope_grants g WHERE g.api_client_id = c.id) AS grant_tenants
           FROM api_clients c JOIN client_secrets s ON s.api_client_id = c.id WHERE c.client_id = $1`,
        [clientId],
      );
      if (rows.length !== 1) throw new Error(`client ${clientId}: ${rows.length} secret rows, expected 1`);
      return rows[0] as Record<string, unknown>;
    };
    const reference = await read(options.apiClientId);
    const hasher = new SecretHasher(options.pepper);
    for (const i of [0, options.count - 1]) {
      const identity = clientIdentity(options.seed, i);
      const row = await read(identity.clientId);
      const same = [
        'tenant_id',
        'state',
        'owner_user_id',
        'has_contact',
        'hash_bytes',
        'revoked_at',
        'valid',
        'secret_tenant',
      ];
      for (const column of same) {
        if (String(row[column]) !== String(reference[column])) {
          throw new Error(
            `generated client ${i}: ${column} is ${String(row[column])}, the API wrote ${String(reference[column])}`,
          );
        }
      }
      if (
        JSON.stringify(row.scopes) !== JSON.stringify(reference.scopes) ||
        JSON.stringify(row.grant_tenants) !== JSON.stringify(reference.grant_tenants)
      ) {
        throw new Error(
          `generated client ${i}: grants ${JSON.stringify(row.scopes)}, the API granted ${JSON.stringify(reference.scopes)}`,
        );
      }
      if (row.hint !== secretHint(identity.secret)) throw new Error(`generated client ${i}: hint ${String(row.hint)}`);
      if (!hasher.matches(identity.secret, row.secret_hash as Buffer))
        throw new Error(`generated client ${i}: the hash is not SecretHasher's`);
      if (row.id !== identity.id)
        throw new Error(`generated client ${i}: row id ${String(row.id)}, expected ${identity.id}`);
      checked.push(`client ${i}: rows as the API writes them`);
    }
    return checked;
  });
}

/** Client i of the set gets a token at the real endpoint, signed by the tenant's key, naming it. */
export async function checkGeneratedToken(
  target: Target,
  server: RunningServer,
  tenantId: string,
  seed: string,
  i: number,
): Promise<string> {
  const response = await fetch(server.url + target.tokenPath, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenBody(seed, i),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`generated client ${i}: token endpoint answered ${response.status}: ${text.slice(0, 200)}`);
  const token = (JSON.parse(text) as { access_token: string }).access_token;
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(server.url + target.jwksPath)));
  const identity = clientIdentity(seed, i);
  if (payload.tid !== tenantId || payload.oid !== identity.id || payload.client_id !== identity.clientId) {
    throw new Error(
      `generated client ${i}: token names ${JSON.stringify({ tid: payload.tid, oid: payload.oid, client_id: payload.client_id })}`,
    );
  }
  if (JSON.stringify(payload.roles) !== JSON.stringify(['Orders.Read']))
    throw new Error(`generated client ${i}: roles ${JSON.stringify(payload.roles)}`);
  return `client ${i}: token with tid, oid, client_id and roles of its rows`;
}

/**
 * Read through the admin API, a generated client and a generated user look like the ones the
 * services created: the same fields, the same state, the client the same scopes.
 */
export async function checkThroughAdminApi(
  admin: RunningServer,
  token: string,
  pairs: Array<{ what: string; generated: string; reference: string; same: string[] }>,
): Promise<string[]> {
  const checked: string[] = [];
  for (const pair of pairs) {
    const generated = await adminGet(admin, token, pair.generated);
    const reference = await adminGet(admin, token, pair.reference);
    if (generated.status !== 200 || reference.status !== 200) {
      throw new Error(
        `${pair.what}: admin API answered ${generated.status} (generated) and ${reference.status} (API-made)`,
      );
    }
    const g = generated.body as Record<string, unknown>;
    const r = reference.body as Record<string, unknown>;
    const keys = (o: Record<string, unknown>) => Object.keys(o).sort().join(',');
    if (keys(g) !== keys(r)) throw new Error(`${pair.what}: fields ${keys(g)}, the API-made one has ${keys(r)}`);
    for (const field of pair.same) {
      if (JSON.stringify(g[field]) !== JSON.stringify(r[field])) {
        throw new Error(
          `${pair.what}: ${field} is ${JSON.stringify(g[field])}, the API-made one has ${JSON.stringify(r[field])}`,
        );
      }
    }
    checked.push(`${pair.what}: same fields as the API-made one through the admin API`);
  }
  return checked;
}
