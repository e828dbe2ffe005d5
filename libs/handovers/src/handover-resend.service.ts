import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { HandoverError, HandoverErrorCode } from './handover.errors.js';
import { HandoverRepository } from './handover.repository.js';
import { HandoverService } from './handover.service.js';
import { type HandoverView, effectiveHandoverStatus } from './handover.view.js';

/**
 * Sending again a handover that expired without being revealed (no secret was ever created): a
 * new one-time link to the same recipient, through the same rules as any handover (who may manage
 * the client's credentials, a client that is not disabled). The person who resends it is the one
 * told if this one expires too. Audited as created, and as a resend of the old one.
 */
@Injectable()
export class HandoverResendService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly handovers: HandoverRepository,
    private readonly service: HandoverService,
    private readonly audit: AuditService,
  ) {}

  resend(tenantId: string, actor: Actor, id: string, input: { expiresInHours?: number } = {}): Promise<HandoverView> {
    return this.dataSource.transaction(async (em) => {
      const expired = await this.handovers.findById(tenantId, id, em, true);
      if (!expired) throw new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
      const status = effectiveHandoverStatus(expired);
      if (status !== 'expired') {
        throw new HandoverError(HandoverErrorCode.NotResendable, `The handover is ${status}; only an expired one is sent again.`);
      }
      const { clientId } = expired.apiClient!;
      const origin = { accessRequestId: expired.accessRequestId, responsibleUserId: actor.userId ?? expired.responsibleUserId };
      const recipient = { recipientEmail: expired.recipientEmail, expiresInHours: input.expiresInHours };
      const sent = await this.service.create(tenantId, actor, clientId, recipient, origin, em);
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'client.handover.resent',
        targetType: 'client',
        targetId: clientId,
        details: { handoverId: expired.id, newHandoverId: sent.id, recipientEmail: sent.recipientEmail },
      });
      return sent;
    });
  }
}
