import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { type EntityManager } from 'typeorm';
import { MailOutbox, type OutboxEntry, certificateExpiryEmail, isSingleAddress, secretExpiryEmail } from '@gatehouse/mail';

export const WARN_DAYS_BEFORE_EXPIRY = 14;

interface DueCertificate {
  tenant_id: string;
  key_id: string;
  thumbprint: string;
  display_name: string;
  expires_at: Date;
  client_name: string;
  client_id: string;
  contact_email: string | null;
}

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
 * Warns each client's contact once per secret and per certificate, 14 days before it expires: a
 * bounded batch is claimed (SKIP LOCKED), marked warned, its mails queued and one audit event per
 * credential written (`client.secret.expiry_warned`, `client.certificate.expiry_warned`, also when
 * the client has no contact address to mail) in one transaction.
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
    for (const kind of [(em: EntityManager) => this.warnSecrets(em), (em: EntityManager) => this.warnCertificates(em)]) {
      for (let i = 0; i < maxBatches; i++) {
        const batch = await this.dataSource.transaction((em) => kind(em)(batchSize));
        total.warned += batch.warned;
        total.mailed += batch.mailed;
        if (batch.warned < batchSize) break;
      }
    }
    return total;
  }

  private warnCertificates(em: EntityManager): (limit: number) => Promise<{ warned: number; mailed: number }> {
    return async (limit) => {
      const rows: DueCertificate[] = await em.query(
        `WITH due AS (SELECT k.id FROM client_certificates k
                       WHERE k.expiry_warned_at IS NULL
                         AND k.not_after > now() AND k.not_after <= now() + make_interval(days => $2)
                       ORDER BY k.not_after LIMIT $1 FOR UPDATE SKIP LOCKED),
              warned AS (UPDATE client_certificates k SET expiry_warned_at = now() FROM due WHERE k.id = due.id
                         RETURNING k.tenant_id, k.key_id, k.thumbprint, k.display_name, k.not_after AS expires_at, k.api_client_id)
         SELECT w.tenant_id, w.key_id, w.thumbprint, w.display_name, w.expires_at, c.display_name AS client_name, c.client_id, c.contact_email
           FROM warned w JOIN api_clients c ON c.id = w.api_client_id`,
        [limit, WARN_DAYS_BEFORE_EXPIRY],
      );
      return this.notify(em, rows, 'client.certificate.expiry_warned', (row) => ({
        mail: certificateExpiryEmail({
          clientDisplayName: row.client_name,
          clientId: row.client_id,
          thumbprint: row.thumbprint,
          displayName: row.display_name,
          expiresAt: new Date(row.expires_at),
        }),
        details: { keyId: row.key_id, thumbprint: row.thumbprint },
      }));
    };
  }

  private warnSecrets(em: EntityManager): (limit: number) => Promise<{ warned: number; mailed: number }> {
    return async (limit) => {
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
      return this.notify(em, rows, 'client.secret.expiry_warned', (row) => ({
        mail: secretExpiryEmail({
          clientDisplayName: row.client_name,
          clientId: row.client_id,
          secretHint: row.hint,
          secretDisplayName: row.display_name,
          expiresAt: new Date(row.expires_at),
        }),
        details: { keyId: row.key_id, hint: row.hint },
      }));
    };
  }

  /** Queues the mails (to contacts with one plain address) and writes one audit event per credential. */
  private async notify<T extends { tenant_id: string; client_id: string; contact_email: string | null; expires_at: Date }>(
    em: EntityManager,
    rows: T[],
    action: string,
    render: (row: T) => { mail: OutboxEntry['mail']; details: Record<string, unknown> },
  ): Promise<{ warned: number; mailed: number }> {
    const rendered = rows.map((row) => ({ row, ...render(row), mailed: isSingleAddress(row.contact_email) }));
    const mails = rendered.filter((r) => r.mailed).map((r) => ({ tenantId: r.row.tenant_id, to: r.row.contact_email!, mail: r.mail }));
    await this.outbox.enqueueMany(em, mails);
    const kind = action === 'client.secret.expiry_warned' ? 'secret' : 'certificate';
    for (const { row, details, mailed } of rendered) {
      const expiresAt = new Date(row.expires_at).toISOString();
      const event = { tenantId: row.tenant_id, actor: SYSTEM_ACTOR, targetType: 'client', targetId: row.client_id };
      await this.audit.record(em, { ...event, action, details: { ...details, expiresAt, mailed } });
      // The same fact for webhook subscribers and SIEMs, under one name for every kind of credential (§13).
      await this.audit.record(em, { ...event, action: 'client.credential.expiring', details: { kind, ...details, expiresAt } });
    }
    return { warned: rows.length, mailed: mails.length };
  }
}
