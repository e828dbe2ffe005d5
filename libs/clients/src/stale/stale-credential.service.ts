import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { MailOutbox, isSingleAddress, staleCredentialEmail } from '@gatehouse/mail';
import type { CredentialKindName } from '../credential-report/credential-report.view.js';
import { StaleSettingsSource } from './stale-settings.js';

interface StaleRow {
  tenant_id: string;
  key_id: string;
  identifying: string;
  last_used_at: Date | null;
  client_id: string;
  client_name: string;
  contact_email: string | null;
  creator_email: string | null;
}

/** Each kind's table, what is still usable of it, and how a mail names one. */
const KINDS: Record<CredentialKindName, { table: string; usable: string; keyId: string; identifying: string; label: string }> = {
  secret: {
    table: 'client_secrets',
    usable: 'k.revoked_at IS NULL AND k.expires_at > now()',
    keyId: 'k.key_id',
    identifying: `'starting with ' || k.hint`,
    label: 'client secret',
  },
  certificate: {
    table: 'client_certificates',
    usable: 'k.not_after > now()',
    keyId: 'k.key_id',
    identifying: `'thumbprint ' || k.thumbprint`,
    label: 'certificate',
  },
  federated: {
    table: 'client_federated_credentials',
    usable: 'true',
    keyId: 'k.id',
    identifying: `'issuer ' || k.issuer || ', subject ' || COALESCE(k.subject, k.claims_expression)`,
    label: 'federated credential',
  },
};

/**
 * Stale credentials (§12): a usable credential of an enabled client that no token was issued with
 * for the tenant's `staleCredentialDays` (never used: counted from its creation) is reported once —
 * marked, one mail to the client's contact and one to the contact person who created the client
 * (through the outbox), and the audit event `client.credential.stale` — in one transaction per
 * bounded batch (SKIP LOCKED: safe on several workers). A later use clears the mark (the flush of
 * last use), so a credential that goes unused again is reported again.
 */
@Injectable()
export class StaleCredentialService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: StaleSettingsSource,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
  ) {}

  async reportStale(batchSize = 500, maxBatches = 100): Promise<{ reported: number; mailed: number }> {
    const total = { reported: 0, mailed: 0 };
    const tenants: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM tenants ORDER BY id`);
    for (const { id: tenantId } of tenants) {
      const { staleCredentialDays: days } = await this.settings.forTenant(tenantId);
      for (const kind of Object.keys(KINDS) as CredentialKindName[]) {
        for (let i = 0; i < maxBatches; i++) {
          const batch = await this.dataSource.transaction((em) => this.reportBatch(em, tenantId, kind, days, batchSize));
          total.reported += batch.reported;
          total.mailed += batch.mailed;
          if (batch.reported < batchSize) break;
        }
      }
    }
    return total;
  }

  private async reportBatch(
    em: EntityManager,
    tenantId: string,
    kind: CredentialKindName,
    days: number,
    limit: number,
  ): Promise<{ reported: number; mailed: number }> {
    const spec = KINDS[kind];
    const rows: StaleRow[] = await em.query(
      `WITH due AS (SELECT k.id FROM ${spec.table} k JOIN api_clients c ON c.id = k.api_client_id AND c.state <> 'disabled'
                     WHERE k.tenant_id = $1 AND k.stale_reported_at IS NULL AND ${spec.usable}
                       AND COALESCE(k.last_used_at, k.created_at) < now() - make_interval(days => $2)
                     ORDER BY k.id LIMIT $3 FOR UPDATE OF k SKIP LOCKED),
            marked AS (UPDATE ${spec.table} k SET stale_reported_at = now() FROM due WHERE k.id = due.id
                       RETURNING k.tenant_id, ${spec.keyId} AS key_id, ${spec.identifying} AS identifying, k.last_used_at, k.api_client_id)
       SELECT m.tenant_id, m.key_id, m.identifying, m.last_used_at, c.client_id, c.display_name AS client_name, c.contact_email,
              u.email AS creator_email
         FROM marked m JOIN api_clients c ON c.id = m.api_client_id
         LEFT JOIN users u ON u.id = c.created_by_user_id AND u.tenant_id = c.tenant_id AND u.status = 'active'`,
      [tenantId, days, limit],
    );
    let mailed = 0;
    for (const row of rows) {
      const mail = staleCredentialEmail({
        clientDisplayName: row.client_name,
        clientId: row.client_id,
        kindLabel: spec.label,
        identifying: row.identifying,
        days,
        lastUsedAt: row.last_used_at,
      });
      const to = [...new Set([row.contact_email, row.creator_email].filter(isSingleAddress))];
      await this.outbox.enqueueMany(em, to.map((address) => ({ tenantId, to: address, mail })));
      mailed += to.length;
      await this.audit.record(em, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: 'client.credential.stale',
        targetType: 'client',
        targetId: row.client_id,
        details: { kind, keyId: row.key_id, lastUsedAt: row.last_used_at?.toISOString() ?? null, unusedDays: days, mailed: to.length },
      });
    }
    return { reported: rows.length, mailed };
  }
}
