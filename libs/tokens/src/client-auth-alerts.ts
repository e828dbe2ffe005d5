import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { MailOutbox, clientAuthBurstEmail, isSingleAddress } from '@gatehouse/mail';
import type { ClientRow } from './client-credentials.repository.js';

/** Makes a burst of failed authentications visible: an audit event and a mail to the client's contact. */
@Injectable()
export class ClientAuthAlerts {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
  ) {}

  async burst(tenantId: string, client: ClientRow, failures: number, windowSeconds: number, lastSource: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const rows: Array<{ display_name: string; contact_email: string | null }> = await em.query(
        `SELECT display_name, contact_email FROM api_clients WHERE tenant_id = $1 AND id = $2`,
        [tenantId, client.id],
      );
      const row = rows[0];
      if (!row) return;
      const mailed = isSingleAddress(row.contact_email);
      await this.audit.record(em, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: 'client.auth.failure_burst',
        targetType: 'client',
        targetId: client.clientId,
        details: { failures, windowSeconds, lastSource, mailed },
      });
      if (!mailed) return;
      await this.outbox.enqueue(em, {
        tenantId,
        to: row.contact_email!,
        mail: clientAuthBurstEmail({
          clientDisplayName: row.display_name,
          clientId: client.clientId,
          failures,
          windowMinutes: Math.round(windowSeconds / 60),
          lastSource,
        }),
      });
    });
  }
}
