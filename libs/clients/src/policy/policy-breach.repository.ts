import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CredentialKind } from './credential-policy.rules.js';

/**
 * Per kind, what makes a credential `k` live (not revoked, not expired) and what makes it break the
 * policy row `p`: a kind it no longer allows, or a lifetime longer than its maximum (an hour of
 * slack, as the rules allow). Shared by the list below and the credential report's filter.
 */
export const POLICY_BREACH: Record<CredentialKind, { live: string; breach: string }> = {
  secret: {
    live: 'k.revoked_at IS NULL AND k.expires_at > now()',
    breach: `NOT ('secret' = ANY(p.allowed_credential_kinds))
             OR k.expires_at - k.created_at > make_interval(days => p.max_secret_lifetime_days, hours => 1)`,
  },
  certificate: {
    live: 'k.not_after > now()',
    breach: `NOT ('certificate' = ANY(p.allowed_credential_kinds))
             OR k.not_after - k.not_before > make_interval(days => p.max_certificate_lifetime_days, hours => 1)`,
  },
  federated: {
    live: 'true',
    breach: `NOT ('federated' = ANY(p.allowed_credential_kinds))`,
  },
};

/**
 * The live credentials of a tenant that its policy flags (not revoked, not expired): a kind it no
 * longer allows, or a lifetime longer than its maximum (an hour of slack, as the rules allow).
 * The same test as {@link outsidePolicy}, in one statement; `$1` is the tenant. No policy row:
 * nothing.
 */
export const OUTSIDE_POLICY_SQL = `
  SELECT 'secret' AS kind, c.client_id, c.display_name, k.key_id, k.hint AS label,
         k.created_at, k.expires_at, NULL::timestamptz AS not_before, NULL::timestamptz AS not_after
    FROM credential_policies p
    JOIN client_secrets k ON k.tenant_id = p.tenant_id AND ${POLICY_BREACH.secret.live}
    JOIN api_clients c ON c.id = k.api_client_id
   WHERE p.tenant_id = $1 AND (${POLICY_BREACH.secret.breach})
  UNION ALL
  SELECT 'certificate', c.client_id, c.display_name, k.key_id, k.thumbprint, k.created_at, k.not_after, k.not_before, k.not_after
    FROM credential_policies p
    JOIN client_certificates k ON k.tenant_id = p.tenant_id AND ${POLICY_BREACH.certificate.live}
    JOIN api_clients c ON c.id = k.api_client_id
   WHERE p.tenant_id = $1 AND (${POLICY_BREACH.certificate.breach})
  UNION ALL
  SELECT 'federated', c.client_id, c.display_name, k.id, k.name, k.created_at, NULL, NULL, NULL
    FROM credential_policies p
    JOIN client_federated_credentials k ON k.tenant_id = p.tenant_id
    JOIN api_clients c ON c.id = k.api_client_id
   WHERE p.tenant_id = $1 AND (${POLICY_BREACH.federated.breach})`;

export interface OutsidePolicyRow {
  kind: CredentialKind;
  clientId: string;
  clientName: string;
  /** The secret's or certificate's key id, the federated credential's id. */
  keyId: string;
  /** Hint, thumbprint or name. */
  label: string;
  createdAt: Date;
  expiresAt: Date | null;
  notBefore: Date | null;
  notAfter: Date | null;
}

/** Reads the credentials a tenant's policy flags. */
@Injectable()
export class PolicyBreachRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `limit` of them, the clients' names in order. */
  async list(tenantId: string, limit: number): Promise<OutsidePolicyRow[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT * FROM (${OUTSIDE_POLICY_SQL}) flagged ORDER BY display_name, client_id, kind, created_at LIMIT $2`,
      [tenantId, limit],
    );
    return rows.map((row) => ({
      kind: row.kind as CredentialKind,
      clientId: row.client_id as string,
      clientName: row.display_name as string,
      keyId: row.key_id as string,
      label: row.label as string,
      createdAt: row.created_at as Date,
      expiresAt: (row.expires_at as Date | null) ?? null,
      notBefore: (row.not_before as Date | null) ?? null,
      notAfter: (row.not_after as Date | null) ?? null,
    }));
  }
}
