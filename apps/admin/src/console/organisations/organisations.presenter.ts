import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UserService } from '@gatehouse/accounts';
import { OffboardingService, OrganisationError, OrganisationErrorCode, OrganisationService, type OrganisationState } from '@gatehouse/organisations';
import { type FieldErrors, html } from '@gatehouse/views';
import { CreateOrganisationDto } from '../../dto/organisations.dto.js';
import { field, formErrors, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { newOrganisationForm, offboardConfirmation, organisationDetail, organisationList, plural } from './organisations.pages.js';

const STATES: readonly string[] = ['active', 'offboarded'];

/**
 * The Organisations page group: the same `OrganisationService` and `OffboardingService` calls as
 * `/admin/v1/organisations`, with the same permissions (Users.Read to look, Users.Manage to create,
 * offboard and restore). Offboarding asks once, on a page that counts what it will change.
 */
@Injectable()
export class OrganisationsPresenter {
  constructor(
    private readonly organisations: OrganisationService,
    private readonly offboarding: OffboardingService,
    private readonly users: UserService,
  ) {}

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const search = queryField(req, 'search').trim().slice(0, 200);
    const state = STATES.includes(queryField(req, 'state')) ? queryField(req, 'state') : '';
    const page = await this.organisations.list(who.tenantId, { search, state: (state || undefined) as OrganisationState | undefined, cursor: queryField(req, 'cursor') || undefined });
    const canManage = who.permissions.includes('Users.Manage');
    return {
      title: 'Organisations',
      lead: 'Partner companies: their people, clients, access requests and handovers, and the one step that offboards them all.',
      action: canManage ? html`<a class="button" href="${who.base}/organisations/new">New organisation</a>` : undefined,
      body: organisationList({ base: who.base, page, search, state, canManage }),
    };
  }

  showNew(who: ConsolePrincipal, name = '', errors: FieldErrors = {}): ConsoleView {
    return {
      title: 'New organisation',
      breadcrumbs: [{ label: 'Organisations', href: `${who.base}/organisations` }, { label: 'New organisation' }],
      body: newOrganisationForm({ action: `${who.base}/organisations`, back: `${who.base}/organisations`, csrf: who.csrfToken, name, errors }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const name = field(req, 'name');
    const errors = await formErrors(CreateOrganisationDto, { name });
    if (Object.keys(errors).length) return this.showNew(who, name, { name: errors.name ?? 'Enter a name.' });
    try {
      const created = await this.organisations.create(who.tenantId, who, { name });
      return { redirect: `${who.base}/organisations/${created.id}`, flash: { kind: 'success', text: `${created.name} created. People and clients join it when an access request naming it is approved.` } };
    } catch (error) {
      if (!(error instanceof OrganisationError) || ![OrganisationErrorCode.InvalidName, OrganisationErrorCode.NameTaken].includes(error.code)) throw error;
      return this.showNew(who, name, { name: error.message.replace(/^name: /, '').replace(/^./, (c) => c.toUpperCase()) });
    }
  }

  async detail(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const organisation = await this.organisations.detail(who.tenantId, id);
    const by = organisation.offboardedByUserId ? await this.users.findById(who.tenantId, organisation.offboardedByUserId) : null;
    const canManage = who.permissions.includes('Users.Manage');
    return {
      title: organisation.name,
      breadcrumbs: [{ label: 'Organisations', href: `${who.base}/organisations` }, { label: organisation.name }],
      action: canManage && organisation.state === 'active' ? html`<a class="button danger" href="${who.base}/organisations/${id}/offboard">Offboard</a>` : undefined,
      body: organisationDetail({
        base: who.base,
        csrf: who.csrfToken,
        organisation,
        offboardedBy: by?.displayName ?? null,
        canManage,
        canAudit: who.permissions.includes('Audit.Read'),
      }),
    };
  }

  async confirmOffboard(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const organisation = await this.organisations.get(who.tenantId, id);
    const path = `${who.base}/organisations/${id}`;
    if (organisation.state === 'offboarded') return { redirect: path, flash: { kind: 'info', text: `${organisation.name} is already offboarded.` } };
    return {
      title: `Offboard ${organisation.name}?`,
      breadcrumbs: [{ label: 'Organisations', href: `${who.base}/organisations` }, { label: organisation.name, href: path }, { label: 'Offboard' }],
      body: offboardConfirmation({ path, csrf: who.csrfToken, name: organisation.name, preview: await this.offboarding.preview(who.tenantId, id) }),
    };
  }

  async offboard(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const before = await this.organisations.get(who.tenantId, id);
    const after = await this.offboarding.offboard(who.tenantId, who, id);
    const path = `${who.base}/organisations/${id}`;
    if (before.state === 'offboarded' || !after.offboarding) return { redirect: path, flash: { kind: 'info', text: `${after.name} was already offboarded: nothing changed.` } };
    const r = after.offboarding;
    const text = `${after.name} offboarded: ${plural(r.usersDisabled, 'person', 'people')} and ${plural(r.clientsDisabled, 'client')} disabled, ${plural(r.invitationsRevoked, 'invitation')} and ${plural(r.handoversRevoked, 'handover')} revoked, ${plural(r.sessionsEnded, 'session')} ended. The contact persons have been told by mail.`;
    return { redirect: path, flash: { kind: 'success', text } };
  }

  async restore(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const before = await this.organisations.get(who.tenantId, id);
    const after = await this.offboarding.restore(who.tenantId, who, id);
    const path = `${who.base}/organisations/${id}`;
    if (before.state === 'active') return { redirect: path, flash: { kind: 'info', text: `${after.name} is active: nothing to restore.` } };
    return { redirect: path, flash: { kind: 'success', text: `${after.name} restored: what the offboarding disabled works again; anything disabled before stays disabled.` } };
  }
}
