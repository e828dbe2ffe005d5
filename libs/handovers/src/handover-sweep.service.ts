import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { MailOutbox, type OutboxEntry, handoverExpiredEmail, isSingleAddress } from '@gatehouse/mail';
import { HandoverRepository } from './handover.repository.js';

export const HANDOVER_SWEEP_BATCH_SIZE = 500;
export const HANDOVER_SWEEP_MAX_BATCHES = 100;

/**
 * Expires handovers nobody revealed in time: no secret was ever created, so there is nothing to
 * revoke; the responsible contact person is told. Each batch (claimed with SKIP LOCKED, so several
 * replicas never share a row) is one transaction with its mails and audit events.
 */
@Injectable()
export class HandoverSweepService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly handovers: HandoverRepository,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
  ) {}

  async expireOverdue(batchSize = HANDOVER_SWEEP_BATCH_SIZE): Promise<{ expired: number; mailed: number }> {
    const total = { expired: 0, mailed: 0 };
    for (let batch = 0; batch < HANDOVER_SWEEP_MAX_BATCHES; batch++) {
      const done = await this.expireBatch(batchSize);
      total.expired += done.expired;
      total.mailed += done.mailed;
      if (done.expired < batchSize) break;
    }
    return total;
  }

  private expireBatch(limit: number): Promise<{ expired: number; mailed: number }> {
    return this.dataSource.transaction(async (em) => {
      const rows = await this.handovers.expireBatch(em, limit);
      const mails: OutboxEntry[] = rows.flatMap((row) => {
        const mail = handoverExpiredEmail({
          tenantName: row.tenantName,
          clientName: row.clientName,
          clientId: row.clientId,
          recipientEmail: row.recipientEmail,
          expiredAt: row.expiresAt,
        });
        return [...new Set(row.notify.filter(isSingleAddress))].map((to) => ({ tenantId: row.tenantId, to, mail }));
      });
      await this.outbox.enqueueMany(em, mails);
      for (const row of rows) {
        await this.audit.record(em, {
          tenantId: row.tenantId,
          actor: SYSTEM_ACTOR,
          action: 'client.handover.expired',
          targetType: 'client',
          targetId: row.clientId,
          details: {
            handoverId: row.id,
            recipientEmail: row.recipientEmail,
            expiresAt: row.expiresAt,
            notified: row.notify,
          },
        });
      }
      return { expired: rows.length, mailed: mails.length };
    });
  }
}
