import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolOf } from '@gatehouse/database';

/** One credential's latest use in a flush: its key (hash, key id or id), when and from where. */
export interface CredentialUseRow {
  tenantId: string;
  clientObjectId: string;
  credential: string;
  at: Date;
  from: string;
}

/** One scope grant's latest use in a flush, named by the client, the API and the scope value. */
export interface GrantUseRow {
  tenantId: string;
  clientObjectId: string;
  apiId: string;
  value: string;
  at: Date;
}

/**
 * The latest use wins (GREATEST), at minute resolution, so replicas flushing in any order leave
 * the newest time; the address goes with the time it came with; a stale report is cleared (the
 * credential is reported again if it goes unused again). Each is one statement for any number of rows.
 */
const LAST_USED = (alias: string) => `
  stale_reported_at = NULL,
  last_used_at = GREATEST(${alias}.last_used_at, date_trunc('minute', u.at)),
  last_used_from = CASE WHEN ${alias}.last_used_at IS NULL OR date_trunc('minute', u.at) >= ${alias}.last_used_at
                        THEN u.source ELSE ${alias}.last_used_from END`;

const SECRETS_SQL = `
UPDATE client_secrets s SET ${LAST_USED('s')}
  FROM unnest($1::uuid[], $2::uuid[], $3::bytea[], $4::timestamptz[], $5::text[]) AS u(tenant_id, api_client_id, secret_hash, at, source)
 WHERE s.tenant_id = u.tenant_id AND s.api_client_id = u.api_client_id AND s.secret_hash = u.secret_hash`;

const CERTIFICATES_SQL = `
UPDATE client_certificates c SET ${LAST_USED('c')}
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::text[]) AS u(tenant_id, api_client_id, key_id, at, source)
 WHERE c.tenant_id = u.tenant_id AND c.api_client_id = u.api_client_id AND c.key_id = u.key_id`;

const FEDERATED_SQL = `
UPDATE client_federated_credentials f SET ${LAST_USED('f')}
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::text[]) AS u(tenant_id, api_client_id, id, at, source)
 WHERE f.tenant_id = u.tenant_id AND f.api_client_id = u.api_client_id AND f.id = u.id`;

const GRANTS_SQL = `
UPDATE client_scope_grants g SET last_used_at = GREATEST(g.last_used_at, date_trunc('minute', u.at))
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[]) AS u(tenant_id, api_client_id, api_id, value, at)
  JOIN api_scopes sc ON sc.api_id = u.api_id AND sc.value = u.value
 WHERE g.tenant_id = u.tenant_id AND g.api_client_id = u.api_client_id AND g.scope_id = sc.id`;

/** The flush's writes: one batched UPDATE per table, whatever the number of uses. */
@Injectable()
export class LastUseRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async secrets(rows: readonly CredentialUseRow[]): Promise<void> {
    if (rows.length === 0) return;
    await poolOf(this.dataSource).query(SECRETS_SQL, [
      rows.map((r) => r.tenantId),
      rows.map((r) => r.clientObjectId),
      rows.map((r) => Buffer.from(r.credential, 'latin1')),
      rows.map((r) => r.at),
      rows.map((r) => r.from),
    ]);
  }

  certificates(rows: readonly CredentialUseRow[]): Promise<void> {
    return this.credentials(CERTIFICATES_SQL, rows);
  }

  federated(rows: readonly CredentialUseRow[]): Promise<void> {
    return this.credentials(FEDERATED_SQL, rows);
  }

  async grants(rows: readonly GrantUseRow[]): Promise<void> {
    if (rows.length === 0) return;
    await poolOf(this.dataSource).query(GRANTS_SQL, [
      rows.map((r) => r.tenantId),
      rows.map((r) => r.clientObjectId),
      rows.map((r) => r.apiId),
      rows.map((r) => r.value),
      rows.map((r) => r.at),
    ]);
  }

  private async credentials(sql: string, rows: readonly CredentialUseRow[]): Promise<void> {
    if (rows.length === 0) return;
    await poolOf(this.dataSource).query(sql, [
      rows.map((r) => r.tenantId),
      rows.map((r) => r.clientObjectId),
      rows.map((r) => r.credential),
      rows.map((r) => r.at),
      rows.map((r) => r.from),
    ]);
  }
}
