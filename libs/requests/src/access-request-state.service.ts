import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import type { AccessRequest } from './access-request.entity.js';
import { AccessRequestError, AccessRequestErrorCode, invalidRequest } from './access-request.errors.js';
import { recordRequestEvent } from './access-request.audit.js';
import { AccessRequestRepository } from './access-request.repository.js';
import { checkNote } from './access-request.rules.js';
import { effectiveRequestStatus } from './access-request.view.js';

export interface ApprovalRecord {
  note: string | null;
  sections: string[];
  userId: string | null;
  apiClientId: string | null;
  invitationId: string | null;
  /** The partner organisation the approval picked or created by the request's name for it. */
  organisationId: string | null;
}

export type DeliveredPart = 'account' | 'credentials';

/**
 * The decision and delivery transitions of a request, inside the caller's transaction (the
 * provisioning use cases that create the user, the client and the handover around them).
 */
@Injectable()
export class AccessRequestStateService {
  constructor(
    private readonly requests: AccessRequestRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * The request, locked until the transaction ends, if it waits for a decision. Of two decisions
   * at once the second waits for the lock, then finds it decided.
   */
  async lockSubmitted(em: EntityManager, tenantId: string, id: string): Promise<AccessRequest> {
    const request = await this.requests.findById(tenantId, id, em, true);
    if (!request) throw new AccessRequestError(AccessRequestErrorCode.NotFound, 'No such access request.');
    const status = effectiveRequestStatus(request);
    if (status !== 'submitted') {
      throw new AccessRequestError(
        AccessRequestErrorCode.NotSubmitted,
        `The request is ${status}, not waiting for a decision.`,
      );
    }
    return request;
  }

  /** The note, trimmed (`null` when empty), or a field problem. */
  note(value: unknown, required: boolean): string | null {
    const message = checkNote(value, required);
    if (message) throw invalidRequest([{ field: 'note', message }]);
    return typeof value === 'string' && value.trim() ? value.trim() : null;
  }

  async approve(em: EntityManager, request: AccessRequest, actor: Actor, record: ApprovalRecord): Promise<void> {
    Object.assign(request, {
      status: 'approved',
      decidedByUserId: actor.userId,
      decidedAt: new Date(),
      decisionNote: record.note,
      sectionSlugs: record.sections,
      userId: record.userId,
      apiClientId: record.apiClientId,
      invitationId: record.invitationId,
      organisationId: record.organisationId,
    });
    await this.requests.save(em, request);
    await recordRequestEvent(this.audit, em, actor, 'access_request.approved', request, { ...record });
  }

  async reject(em: EntityManager, request: AccessRequest, actor: Actor, note: string): Promise<void> {
    Object.assign(request, {
      status: 'rejected',
      decidedByUserId: actor.userId,
      decidedAt: new Date(),
      decisionNote: note,
    });
    await this.requests.save(em, request);
    await recordRequestEvent(this.audit, em, actor, 'access_request.rejected', request, { note });
  }

  /**
   * Records that the new account was activated, or the client's credentials revealed; a request
   * whose every approved part is delivered becomes `fulfilled`. One audit event per request and
   * step (`delivered`, or `fulfilled` for the last part), so a request's trail reads in order.
   * Returns the requests it touched.
   */
  async delivered(
    em: EntityManager,
    tenantId: string,
    by: { userId: string } | { apiClientId: string },
    actor: Actor,
    details: Record<string, unknown> = {},
  ): Promise<AccessRequest[]> {
    const part: DeliveredPart = 'userId' in by ? 'account' : 'credentials';
    const waiting = await this.requests.awaitingDelivery(em, tenantId, by);
    for (const request of waiting) {
      const now = new Date();
      if (part === 'account') request.accountDeliveredAt = now;
      else request.credentialsDeliveredAt = now;
      const complete =
        (!request.wantsAccount || request.accountDeliveredAt !== null) &&
        (!request.wantsApi || request.credentialsDeliveredAt !== null);
      if (complete) Object.assign(request, { status: 'fulfilled', fulfilledAt: now });
      await this.requests.save(em, request);
      await recordRequestEvent(
        this.audit,
        em,
        actor,
        complete ? 'access_request.fulfilled' : 'access_request.delivered',
        request,
        {
          part,
          ...details,
        },
      );
    }
    return waiting;
  }

  /** Approved requests whose client's credentials have not been revealed yet. */
  awaitingCredentials(em: EntityManager, tenantId: string, apiClientId: string): Promise<AccessRequest[]> {
    return this.requests.awaitingDelivery(em, tenantId, { apiClientId });
  }
}
