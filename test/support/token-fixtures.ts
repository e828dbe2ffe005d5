import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { CHANGE_CHANNEL, ChangeListener, announceChange } from '@gatehouse/database';

/**
 * Test data for the token endpoint, written straight to the tables (the admin side is another
 * team's; these fixtures depend only on the schema). Secrets are hashed with the test pepper.
 */
export class TokenFixtures {
  readonly dataSource: DataSource;
  readonly listener: ChangeListener;
  private readonly hasher: SecretHasher;

  constructor(app: INestApplication, pepper: Buffer) {
    this.dataSource = app.get(DataSource);
    this.listener = app.get(ChangeListener);
    this.hasher = new SecretHasher(pepper);
  }

  /**
   * Waits until this app's change listener has received every notification committed so far:
   * Postgres delivers notifications in commit order, so once a marker sent now arrives, all
   * earlier ones (the changes under test) have arrived too.
   */
  settle(timeoutMs = 5_000): Promise<void> {
    const marker = randomUUID();
    return new Promise<void>((resolve, reject) => {
      const unsubscribe = this.listener.subscribe((event) => {
        if (event.tenantId !== marker) return;
        clearTimeout(timer);
        unsubscribe();
        resolve();
      });
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`no change notification within ${timeoutMs} ms`));
      }, timeoutMs);
      this.dataSource.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `keys:${marker}:*`]).catch(reject);
    });
  }

  /** Waits until the change listener is (dis)connected. */
  async listenerConnected(connected: boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.listener.connected !== connected) {
      if (Date.now() > deadline) throw new Error(`change listener still ${connected ? 'disconnected' : 'connected'}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async tenant(
    options: { slug?: string; algorithm?: 'RS256' | 'ES256'; lifetime?: number; extLifetime?: number } = {},
  ) {
    const slug = options.slug ?? `t-${randomBytes(4).toString('hex')}`;
    const [row] = await this.dataSource.query(
      `INSERT INTO tenants (slug, display_name, signing_algorithm, access_token_lifetime_seconds, ext_access_token_lifetime_seconds)
       VALUES ($1, $1, $2, $3, $4) RETURNING id`,
      [slug, options.algorithm ?? 'RS256', options.lifetime ?? 3599, options.extLifetime ?? options.lifetime ?? 3599],
    );
    return { id: row.id as string, slug };
  }

  async api(tenantId: string, options: { identifier: string; scopes: string[]; builtIn?: boolean }) {
    const appId = randomUUID();
    const [row] = await this.dataSource.query(
      `INSERT INTO apis (tenant_id, app_id, identifier, display_name, built_in) VALUES ($1, $2, $3, $3, $4) RETURNING id`,
      [tenantId, appId, options.identifier, options.builtIn ?? false],
    );
    const scopeIds: Record<string, string> = {};
    for (const value of options.scopes) {
      const [scope] = await this.dataSource.query(
        `INSERT INTO api_scopes (tenant_id, api_id, value) VALUES ($1, $2, $3) RETURNING id`,
        [tenantId, row.id, value],
      );
      scopeIds[value] = scope.id;
    }
    return { id: row.id as string, appId, identifier: options.identifier, scopeIds };
  }

  async user(tenantId: string, options: { roles?: string[]; status?: 'active' | 'disabled' } = {}) {
    const username = `u${randomBytes(4).toString('hex')}`;
    const [row] = await this.dataSource.query(
      `INSERT INTO users (tenant_id, username, username_normalized, email, display_name, roles, status)
       VALUES ($1, $2, $2, $2 || '@example.com', $2, $3, $4) RETURNING id`,
      [tenantId, username, options.roles ?? [], options.status ?? 'active'],
    );
    return { id: row.id as string };
  }

  async client(
    tenantId: string,
    options: { state?: 'awaiting_scopes' | 'active' | 'disabled'; ownerUserId?: string; clientId?: string } = {},
  ) {
    const clientId = options.clientId ?? randomUUID();
    const [row] = await this.dataSource.query(
      `INSERT INTO api_clients (tenant_id, client_id, display_name, owner_user_id, state) VALUES ($1, $2, 'test client', $3, $4)
       RETURNING id`,
      [tenantId, clientId, options.ownerUserId ?? null, options.state ?? 'active'],
    );
    return { id: row.id as string, clientId };
  }

  async secret(tenantId: string, apiClientId: string, options: { value?: string; expiresAt?: Date } = {}) {
    const value = options.value ?? generateOpaqueSecret();
    const [row] = await this.dataSource.query(
      `INSERT INTO client_secrets (tenant_id, api_client_id, key_id, hint, secret_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        tenantId,
        apiClientId,
        randomUUID(),
        value.slice(0, 3),
        this.hasher.hash(value),
        options.expiresAt ?? new Date(Date.now() + 86_400_000),
      ],
    );
    return { id: row.id as string, value };
  }

  async grant(tenantId: string, apiClientId: string, scopeIds: string[]): Promise<void> {
    for (const scopeId of scopeIds) {
      await this.dataSource.query(
        `INSERT INTO client_scope_grants (tenant_id, api_client_id, scope_id) VALUES ($1, $2, $3)`,
        [tenantId, apiClientId, scopeId],
      );
    }
  }

  /** A change as the admin side makes it: the rows and the announcement in one transaction. */
  async change(
    sql: string,
    params: unknown[],
    announce: { kind: 'client' | 'user' | 'tenant' | 'keys'; tenantId: string; id: string },
  ) {
    await this.dataSource.transaction(async (em) => {
      await em.query(sql, params);
      await announceChange(em, announce.kind, announce.tenantId, announce.id);
    });
  }

  /** A ready client: active, granted the given scopes of the API, with one secret. */
  async readyClient(tenantId: string, api: { scopeIds: Record<string, string> }, scopes: string[], secret?: string) {
    const client = await this.client(tenantId);
    await this.grant(
      tenantId,
      client.id,
      scopes.map((s) => api.scopeIds[s]!),
    );
    const created = await this.secret(tenantId, client.id, { value: secret });
    return { ...client, secret: created.value, secretId: created.id };
  }
}

/** A plain pause, for what has no notification to wait for (e.g. log lines written asynchronously). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
