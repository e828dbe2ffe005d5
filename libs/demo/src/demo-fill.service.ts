import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiService } from '@gatehouse/apis';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { OrganisationService } from '@gatehouse/organisations';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestService } from '@gatehouse/requests';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { ACTIVE_CLIENT, APPROVED_REQUEST, DEMO_API, DEMO_ORGANISATION, DEMO_SECTIONS, PENDING_REQUEST } from './demo-content.js';
import { DemoError, DemoErrorCode } from './demo.errors.js';
import { DEMO_FILLED_ACTION, DemoRepository } from './demo.repository.js';
import { type DemoSignIn, DemoStaffService } from './demo-staff.service.js';

/**
 * What the database holds, for the demo: nothing (bootstrap the tenant, then fill it), only what a
 * first start wrote (fill it), a previous demo fill (print the sign-ins only), or anything else
 * (refuse: the demo never mixes its people and partners into real data).
 */
export type DemoState = { kind: 'empty' } | { kind: 'fresh' } | { kind: 'filled' } | { kind: 'other'; holds: string };

export interface DemoFill {
  signIns: DemoSignIn[];
  /** What was made, one line each, for the person who ran it. */
  made: string[];
}

/**
 * The demo fill of a freshly bootstrapped tenant: a partner organisation, an API with scopes,
 * documentation sections, an approved and a pending access request, a client awaiting scopes, a
 * client with scopes and a secret, and one staff member per role. Every step is the use case the
 * console calls, acted by the person whose job it is, so the audit log shows a real day's events;
 * the last event marks the tenant as a demo.
 */
@Injectable()
export class DemoFillService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: DemoRepository,
    private readonly tenants: TenantService,
    private readonly staff: DemoStaffService,
    private readonly organisations: OrganisationService,
    private readonly apis: ApiService,
    private readonly docs: DocService,
    private readonly requests: AccessRequestService,
    private readonly decisions: AccessDecisionService,
    private readonly clients: ClientService,
    private readonly audit: AuditService,
  ) {}

  async state(slug: string): Promise<DemoState> {
    const { tenants, demoFilled, otherEvents } = await this.repository.contents(this.dataSource.manager, slug);
    if (tenants.length === 0) return { kind: 'empty' };
    if (demoFilled) return { kind: 'filled' };
    const others = tenants.filter((tenant) => tenant.slug !== slug);
    if (others.length) return { kind: 'other', holds: `tenant ${others.map((t) => `"${t.slug}"`).join(', ')}` };
    if (otherEvents === 0) return { kind: 'fresh' };
    return { kind: 'other', holds: `${otherEvents} audit event${otherEvents === 1 ? '' : 's'} of work done in tenant "${slug}"` };
  }

  /** Fills the tenant (bootstrapped already, nothing done in it since); a DemoError for any other database. */
  async fill(slug: string): Promise<DemoFill> {
    const state = await this.state(slug);
    if (state.kind !== 'fresh') throw refusal(state, slug);
    const tenant = await this.tenants.findByIdOrSlug(slug);
    if (!tenant) throw new Error(`tenant ${slug} disappeared`);
    const { signIns, actors } = await this.staff.create(tenant);
    const contact = actors.ContactPerson;
    const it = actors.ITDepartment;
    const organisation = await this.organisations.create(tenant.id, contact, { name: DEMO_ORGANISATION });
    await this.createApi(tenant, it);
    for (const section of DEMO_SECTIONS) await this.docs.create(tenant.id, contact, section);
    const approved = await this.requests.file(tenant.id, contact, APPROVED_REQUEST);
    await this.decisions.approve(tenant.id, contact, approved.id, {
      note: 'Welcome aboard: the route planner gets its scopes from IT shortly.',
      sections: [DEMO_SECTIONS[0]!.slug],
    });
    await this.requests.file(tenant.id, contact, PENDING_REQUEST);
    const client = await this.clients.create(tenant.id, contact, { ...pick(ACTIVE_CLIENT), organisationId: organisation.id });
    await this.clients.setScopes(tenant.id, it, client.clientId, ACTIVE_CLIENT.scopes);
    await this.clients.issueSecret(tenant.id, contact, client.clientId, { displayName: 'dispatch server', expiresInDays: ACTIVE_CLIENT.secretDays });
    const made = [
      `${signIns.length} staff members, one per role`,
      `partner organisation ${DEMO_ORGANISATION}`,
      `${DEMO_API.displayName} (${DEMO_API.identifier}) with ${DEMO_API.scopes.map((s) => s.value).join(', ')}`,
      `${DEMO_SECTIONS.length} documentation sections`,
      `an approved access request (${APPROVED_REQUEST.api!.systemName}: a client awaiting scopes, a partner account invited)`,
      `an access request waiting for a decision (${PENDING_REQUEST.requesterName})`,
      `client ${ACTIVE_CLIENT.displayName} with scopes and a secret expiring in ${ACTIVE_CLIENT.secretDays} days`,
    ];
    await this.markFilled(tenant, signIns);
    return { signIns, made };
  }

  private async createApi(tenant: Tenant, it: Actor): Promise<void> {
    const api = await this.apis.create(tenant.id, it, { identifier: DEMO_API.identifier, displayName: DEMO_API.displayName });
    for (const scope of DEMO_API.scopes) await this.apis.addScope(tenant.id, it, api.id, scope);
  }

  private markFilled(tenant: Tenant, signIns: DemoSignIn[]): Promise<void> {
    return this.dataSource.transaction((em) =>
      this.audit.record(em, {
        tenantId: tenant.id,
        actor: SYSTEM_ACTOR,
        action: DEMO_FILLED_ACTION,
        targetType: 'tenant',
        targetId: tenant.id,
        details: { staff: signIns.map((s) => s.username), organisation: DEMO_ORGANISATION, api: DEMO_API.identifier },
      }),
    );
  }
}

function pick({ displayName, contactEmail }: typeof ACTIVE_CLIENT) {
  return { displayName, contactEmail };
}

/** Why the demo leaves this database alone, in one sentence. */
export function refusal(state: DemoState, slug: string): DemoError {
  const holds =
    state.kind === 'other' ? state.holds : state.kind === 'filled' ? `the demo fill of tenant "${slug}"` : 'no tenant yet';
  return new DemoError(
    DemoErrorCode.NotADemoDatabase,
    `The demo fills only an empty database, or one that a first start has just set up; this one holds ${holds}, so it is left as it is.`,
  );
}
