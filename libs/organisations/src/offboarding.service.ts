import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { MailOutbox, isSingleAddress, organisationChangeEmail } from '@gatehouse/mail';
import { TenantService } from '@gatehouse/tenants';
import { OffboardingRepository } from './offboarding.repository.js';
import type { OffboardingRecord, Organisation } from './organisation.entity.js';
import { OrganisationError, OrganisationErrorCode } from './organisation.errors.js';
import { OrganisationRepository } from './organisation.repository.js';
import { notFound } from './organisation.service.js';
import { type OffboardingPreview, type OrganisationView, organisationView } from './organisation.view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only an Administrator (or the system) offboards an organisation that holds a person with a role. */
const isAdministrator = (actor: Actor) => actor.type === 'system' || (actor.permissions ?? []).includes('Tenant.Manage');

/**
 * Offboarding a partner organisation and restoring it (§12), the use cases behind
 * `POST /admin/v1/organisations/{id}/offboard|restore` and the console's buttons. One transaction
 * each: the changes, what they changed (kept on the organisation), one audit event, the contact
 * persons' mail in the outbox, and the notice every replica hears so no cached client or session
 * outlives it. Doing it twice is doing it once: the second call changes and records nothing.
 */
@Injectable()
export class OffboardingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organisations: OrganisationRepository,
    private readonly offboarding: OffboardingRepository,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
    private readonly tenants: TenantService,
  ) {}

  /** What an offboarding would change now (the console's confirmation page). */
  async preview(tenantId: string, id: string): Promise<OffboardingPreview> {
    const row = UUID.test(id) ? await this.organisations.find(tenantId, id) : null;
    if (!row) throw notFound();
    return this.offboarding.preview(this.dataSource.manager, tenantId, row.id);
  }

  async offboard(tenantId: string, actor: Actor, id: string): Promise<OrganisationView> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.locked(em, tenantId, id);
      if (row.state === 'offboarded') return organisationView(row);
      await this.checkAllowed(em, tenantId, actor, row);
      const record = await this.offboarding.offboard(em, tenantId, row.id);
      await this.organisations.update(em, row.id, { state: 'offboarded', offboardedAt: new Date(), offboardedByUserId: actor.userId, offboarding: record });
      await this.audit.record(em, { tenantId, actor, action: 'organisation.offboarded', targetType: 'organisation', targetId: row.id, details: details(row, record) });
      await this.announce(em, tenantId, record);
      await this.tell(em, tenantId, actor, row, 'offboarded', record);
      return organisationView((await this.organisations.find(tenantId, row.id, em))!);
    });
  }

  /** Reverses what the offboarding changed, nothing else (a client disabled before it stays disabled). */
  async restore(tenantId: string, actor: Actor, id: string): Promise<OrganisationView> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.locked(em, tenantId, id);
      if (row.state === 'active') return organisationView(row);
      await this.checkAllowed(em, tenantId, actor, row);
      const record = await this.offboarding.restore(em, tenantId, row.offboarding ?? emptyRecord());
      await this.organisations.update(em, row.id, { state: 'active', offboardedAt: null, offboardedByUserId: null, offboarding: null });
      await this.audit.record(em, { tenantId, actor, action: 'organisation.restored', targetType: 'organisation', targetId: row.id, details: details(row, record) });
      await this.announce(em, tenantId, record);
      await this.tell(em, tenantId, actor, row, 'restored', record);
      return organisationView((await this.organisations.find(tenantId, row.id, em))!);
    });
  }

  private async checkAllowed(em: EntityManager, tenantId: string, actor: Actor, row: Organisation): Promise<void> {
    if (!isAdministrator(actor) && (await this.offboarding.staffCount(em, tenantId, row.id)) > 0) {
      throw new OrganisationError(
        OrganisationErrorCode.HoldsStaff,
        `${row.name} holds a person with a role (or a client of one): only an Administrator offboards or restores it.`,
      );
    }
    if (row.state === 'active' && (await this.offboarding.wouldLeaveNoAdministrator(em, tenantId, row.id))) {
      throw new OrganisationError(OrganisationErrorCode.LastAdministrator, 'Offboarding it would leave the tenant without an active Administrator.');
    }
  }

  /** Every replica drops what it cached of the tenant's clients and people (sessions of disabled people end there too). */
  private async announce(em: EntityManager, tenantId: string, record: OffboardingRecord): Promise<void> {
    if (record.clients.length > 0) await announceChange(em, 'client', tenantId);
    if (record.userIds.length > 0) await announceChange(em, 'user', tenantId);
  }

  private async tell(em: EntityManager, tenantId: string, actor: Actor, row: Organisation, kind: 'offboarded' | 'restored', record: OffboardingRecord) {
    const recipients = [...new Set((await this.offboarding.contactPersons(em, tenantId)).filter(isSingleAddress))];
    if (recipients.length === 0) return;
    const names = await this.offboarding.names(em, tenantId, record);
    const mail = organisationChangeEmail({
      tenantName: (await this.tenants.getById(tenantId, em)).displayName,
      organisation: row.name,
      kind,
      actorName: await this.offboarding.personName(em, tenantId, actor.userId),
      usersChanged: record.userIds.length,
      clientsChanged: record.clients.length,
      invitationsChanged: record.invitationIds.length,
      handoversChanged: record.handoverIds.length,
      sessionsEnded: record.sessionsEnded,
      ...names,
    });
    await this.outbox.enqueueMany(em, recipients.map((to) => ({ tenantId, to, mail })));
  }

  private async locked(em: EntityManager, tenantId: string, id: string): Promise<Organisation> {
    const row = UUID.test(id) ? await this.organisations.findForUpdate(em, tenantId, id) : null;
    if (!row) throw notFound();
    return row;
  }
}

function emptyRecord(): OffboardingRecord {
  return { userIds: [], clients: [], invitationIds: [], handoverIds: [], sessionsEnded: 0 };
}

/** The audit body: what changed, by id (no secret is involved). */
function details(row: Organisation, record: OffboardingRecord): Record<string, unknown> {
  return {
    name: row.name,
    users: record.userIds,
    clients: record.clients.map((client) => ({ clientId: client.clientId, state: client.state })),
    invitations: record.invitationIds,
    handovers: record.handoverIds,
    sessionsEnded: record.sessionsEnded,
  };
}
