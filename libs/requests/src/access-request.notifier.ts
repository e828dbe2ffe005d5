import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from '@gatehouse/audit';
import {
  MailOutbox,
  type OutboxEntry,
  type RenderedEmail,
  accessRequestApprovedEmail,
  accessRequestRejectedEmail,
  accessRequestSubmittedEmail,
  isSingleAddress,
  requestedWhat,
} from '@gatehouse/mail';
import { TenantService } from '@gatehouse/tenants';
import type { AccessRequest } from './access-request.entity.js';
import { AccessRequestRepository } from './access-request.repository.js';

/** "a personal account and API access for Orders sync" */
export function whatOf(request: Pick<AccessRequest, 'wantsAccount' | 'wantsApi' | 'systemName'>): string {
  return requestedWhat({
    account: request.wantsAccount,
    systemName: request.wantsApi ? (request.systemName ?? '') : null,
  });
}

/** The person who decided a request, as the requester's mail names them. */
export interface Decider {
  name: string;
  email: string;
}

/** What an approval made for the requester: the account's username, and whether the invitation's link sets its password. */
export interface ApprovedAccount {
  username?: string;
  invited: boolean;
  decider: Decider | null;
}

/** The mails of a request's transitions, written to the outbox inside the caller's transaction. */
@Injectable()
export class AccessRequestNotifier {
  constructor(
    private readonly requests: AccessRequestRepository,
    private readonly tenants: TenantService,
    private readonly outbox: MailOutbox,
  ) {}

  /** Every active ContactPerson of the tenant (but the one who filed it) hears of a new request. */
  async submitted(em: EntityManager, request: AccessRequest, filedBy: Actor | null): Promise<number> {
    const tenantName = await this.tenantName(em, request.tenantId);
    const recipients = await this.staff(em, request.tenantId, 'ContactPerson', filedBy?.userId ?? null);
    const mail = accessRequestSubmittedEmail({
      tenantName,
      requestId: request.id,
      requesterName: request.requesterName,
      requesterEmail: request.requesterEmail,
      organisation: request.organisation,
      what: whatOf(request),
    });
    await this.outbox.enqueueMany(
      em,
      recipients.map((to) => ({ tenantId: request.tenantId, to, mail })),
    );
    return recipients.length;
  }

  /** Every active member of the IT department: a client of this request awaits its scopes. */
  async toItDepartment(
    em: EntityManager,
    tenantId: string,
    mail: (tenantName: string) => RenderedEmail,
  ): Promise<number> {
    const recipients = await this.staff(em, tenantId, 'ITDepartment', null);
    const rendered = mail(await this.tenantName(em, tenantId));
    await this.outbox.enqueueMany(
      em,
      recipients.map((to): OutboxEntry => ({ tenantId, to, mail: rendered })),
    );
    return recipients.length;
  }

  async approved(em: EntityManager, request: AccessRequest, account: ApprovedAccount): Promise<void> {
    const mail = accessRequestApprovedEmail({
      tenantName: await this.tenantName(em, request.tenantId),
      requesterName: request.requesterName,
      username: account.username,
      invited: account.invited,
      decider: account.decider,
      api: request.wantsApi
        ? { systemName: request.systemName ?? '', technicalContactEmail: request.technicalContactEmail ?? '' }
        : undefined,
      note: request.decisionNote,
    });
    await this.outbox.enqueue(em, { tenantId: request.tenantId, to: request.requesterEmail, mail });
  }

  async rejected(em: EntityManager, request: AccessRequest, decider: Decider | null): Promise<void> {
    const mail = accessRequestRejectedEmail({
      decider,
      tenantName: await this.tenantName(em, request.tenantId),
      requesterName: request.requesterName,
      what: whatOf(request),
      note: request.decisionNote ?? '',
    });
    await this.outbox.enqueue(em, { tenantId: request.tenantId, to: request.requesterEmail, mail });
  }

  private async tenantName(em: EntityManager, tenantId: string): Promise<string> {
    return (await this.tenants.getById(tenantId, em)).displayName;
  }

  private async staff(em: EntityManager, tenantId: string, role: string, except: string | null): Promise<string[]> {
    const addresses = await this.requests.staffAddresses(em, tenantId, role, except);
    return [...new Set(addresses.filter(isSingleAddress))];
  }
}
