import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type CreatedUser, UserRepository, UserService } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';
import { ClientRepository, ClientService } from '@gatehouse/clients';
import { InvitationService } from '@gatehouse/invitations';
import { clientAwaitingScopesEmail } from '@gatehouse/mail';
import { OrganisationService } from '@gatehouse/organisations';
import {
  type AccessRequest,
  AccessRequestError,
  AccessRequestErrorCode,
  AccessRequestNotifier,
  AccessRequestService,
  AccessRequestStateService,
  type AccessRequestView,
  type Decider,
} from '@gatehouse/requests';

export interface ApproveInput {
  note?: string;
  /** Documentation sections the new user is invited to (account requests only). */
  sections?: string[];
  /** Validity of that invitation (default and maximum: the invitation's). */
  expiresInHours?: number;
}

const USERNAME_MAX = 64;

/**
 * Deciding an access request: one transaction creates what the approval grants (the user with
 * an activation link and an invitation, the client awaiting scopes), records the decision with
 * its audit event and queues every mail it causes; any refusal on the way leaves nothing behind.
 */
@Injectable()
export class AccessDecisionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly requests: AccessRequestService,
    private readonly state: AccessRequestStateService,
    private readonly notifier: AccessRequestNotifier,
    private readonly users: UserService,
    private readonly userRepository: UserRepository,
    private readonly invitations: InvitationService,
    private readonly clients: ClientService,
    private readonly clientRepository: ClientRepository,
    private readonly organisations: OrganisationService,
  ) {}

  async approve(tenantId: string, actor: Actor, id: string, input: ApproveInput): Promise<AccessRequestView> {
    const sections = [...new Set(input.sections ?? [])];
    await this.dataSource.transaction(async (em) => {
      const decider = await this.requireActiveDecider(em, tenantId, actor);
      const request = await this.state.lockSubmitted(em, tenantId, id);
      const note = this.state.note(input.note, false);
      if (!request.wantsAccount && (sections.length > 0 || input.expiresInHours !== undefined)) {
        throw new AccessRequestError(
          AccessRequestErrorCode.NoAccountRequested,
          'This request asks for no personal account: sections and expiresInHours do not apply.',
        );
      }
      // One link sets the password: the invitation's when there is one (choose a password, then accept), else the activation link.
      const setup = sections.length > 0 ? 'none' : 'activation-link';
      // The organisation the requester named: the tenant's one of that name (any case), or a new one.
      const organisationId = request.organisation.trim() ? (await this.organisations.pickOrCreate(em, tenantId, actor, request.organisation)).id : null;
      const user = request.wantsAccount ? await this.createAccount(em, tenantId, actor, request, setup, organisationId) : null;
      const invitation =
        user && sections.length > 0
          ? await this.invitations.create(
              tenantId,
              actor,
              { userId: user.id, sections, expiresInHours: input.expiresInHours },
              em,
            )
          : null;
      const apiClientId = request.wantsApi ? await this.createClient(em, tenantId, actor, request, organisationId) : null;
      await this.state.approve(em, request, actor, {
        note,
        sections: invitation ? sections : [],
        userId: user?.id ?? null,
        apiClientId,
        invitationId: invitation?.id ?? null,
        organisationId,
      });
      await this.notifier.approved(em, request, { username: user?.username, invited: invitation !== null, decider });
    });
    return this.requests.get(tenantId, id);
  }

  /** Rejects with a note, which the requester receives. */
  async reject(tenantId: string, actor: Actor, id: string, input: { note: string }): Promise<AccessRequestView> {
    await this.dataSource.transaction(async (em) => {
      const decider = await this.requireActiveDecider(em, tenantId, actor);
      const request = await this.state.lockSubmitted(em, tenantId, id);
      const note = this.state.note(input.note, true)!;
      await this.state.reject(em, request, actor, note);
      await this.notifier.rejected(em, request, decider);
    });
    return this.requests.get(tenantId, id);
  }

  /**
   * A decision needs a person whose account is active now (a console session may outlive a
   * disable); returns them as the requester's mail names them (`null`: the system decided).
   */
  private async requireActiveDecider(em: EntityManager, tenantId: string, actor: Actor): Promise<Decider | null> {
    if (actor.type === 'system') return null;
    const decider = actor.userId ? await this.userRepository.findById(tenantId, actor.userId, em) : null;
    if (decider?.status !== 'active') {
      throw new AccessRequestError(
        AccessRequestErrorCode.DeciderDisabled,
        'Only a person with an active account decides requests.',
      );
    }
    return { name: decider.displayName, email: decider.email };
  }

  /** The requester's account: username = their address (made unique); its password is set through the one link mailed. */
  private async createAccount(
    em: EntityManager,
    tenantId: string,
    actor: Actor,
    request: AccessRequest,
    password: 'none' | 'activation-link',
    organisationId: string | null,
  ): Promise<CreatedUser> {
    return this.users.create(
      tenantId,
      actor,
      {
        username: await this.freeUsername(em, tenantId, request.requesterEmail),
        email: request.requesterEmail,
        displayName: request.requesterName,
        password,
        organisationId,
      },
      em,
    );
  }

  private async freeUsername(em: EntityManager, tenantId: string, email: string): Promise<string> {
    const base = email
      .toLowerCase()
      .replace(/[^a-z0-9._@-]/g, '-')
      .slice(0, USERNAME_MAX - 4);
    for (let n = 1; n < 1000; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await this.userRepository.findByUsername(tenantId, candidate, em))) return candidate;
    }
    throw new Error('no free username');
  }

  /** The system's client, awaiting scopes, its technical contact as contact; the IT department is told. */
  private async createClient(
    em: EntityManager,
    tenantId: string,
    actor: Actor,
    request: AccessRequest,
    organisationId: string | null,
  ): Promise<string> {
    const view = await this.clients.create(
      tenantId,
      actor,
      { displayName: request.systemName!, contactEmail: request.technicalContactEmail!, organisationId },
      em,
    );
    await this.notifier.toItDepartment(em, tenantId, (tenantName) =>
      clientAwaitingScopesEmail({
        tenantName,
        clientName: view.displayName,
        clientId: view.clientId,
        organisation: request.organisation,
      }),
    );
    return (await this.clientRepository.findByClientId(tenantId, view.clientId, em))!.id;
  }
}
