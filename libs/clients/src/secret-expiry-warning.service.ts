import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { MailOutbox, type OutboxEntry, isSingleAddress, secretExpiryEmail } from '@gatehouse/mail';

export const WARN_DAYS_BEFORE_EXPIRY = 14;

interface DueSecret {
  tenant_id: string;
  key_id: string;
  hint: string;
  display_name: string;
  expires_at: Date;
  client_name: string;
  client_id: string;
  contact_email: string | null;
}

/**
 * Warns each client's contact once per secret, 14 days before it expires: a bounded batch is
 * claimed (SKIP LOCKED), marked warned, its mails queued and one audit event per secret written
 * (`client.secret.expiry_warned`, also when the client has no contact address to mail) in one
 * transaction.
 */
@Injectable()
export class SecretExpiryWarningService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
  ) {}

  async warnExpiring(batchSize = 500, maxBatches = 100): Promise<{ warned: number; mailed: number }> {
    const total = { warned: 0, mailed: 0 };
    for (let i = 0; i < maxBatches; i++) {
      const batch = await this.warnBatch(batchSize);
      total.warned += batch.warned;
      total.mailed += batch.mailed;
      if (batch.warned < batchSize) break;
    }
    return total;
  }

  private warnBatch(limit: number): Promise<{ warned: number; mailed: number }> {
    return this.dataSource.transaction(async (em) => {
      const rows: DueSecret[] = await em.query(
        `WITH due AS (SELECT s.id FROM client_secrets s
                       WHERE s.revoked_at IS NULL AND s.expiry_warned_at IS NULL
                         AND s.expires_at > now() AND s.expires_at <= now() + make_interval(days => $2)
                       ORDER BY s.expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
              warned AS (UPDATE client_secrets s SET expiry_warned_at = now() FROM due WHERE s.id = due.id
                         RETURNING s.tenant_id, s.key_id, s.hint, s.display_name, s.expires_at, s.api_client_id)
         SELECT w.tenant_id, w.key_id, w.hint, w.display_name, w.expires_at, c.display_name AS client_name, c.client_id, c.contact_email
           FROM warned w JOIN api_clients c ON c.id = w.api_client_id`,
        [limit, WARN_DAYS_BEFORE_EXPIRY],
      );
      const mails: OutboxEntry[] = rows
        .filter((row) => isSingleAddress(row.contact_email))
        .map((row) => ({
          tenantId: row.tenant_id,
          to: row.contact_email!,
          mail: secretExpiryEmail({
            clientDisplayName: row.client_name,
            clientId: row.client_id,
            secretHint: row.hint,
            secretDisplayName: row.display_name,
            expiresAt: new Date(row.expires_at),
          }),
        }));
      await this.outbox.enqueueMany(em, mails);
      for (const row of rows) {
        await this.audit.record(em, {
          tenantId: row.tenant_id,
          actor: SYSTEM_ACTOR,
          action: 'client.secret.expiry_warned',
          targetType: 'client',
          targetId: row.client_id,
          details: {
            keyId: row.key_id,
            hint: row.hint,
            expiresAt: new Date(row.expires_at).toISOString(),
            mailed: isSingleAddress(row.contact_email),
          },
        });
      }
      return { warned: rows.length, mailed: mails.length };
    });
  }
}
