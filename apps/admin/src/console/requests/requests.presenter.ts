import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UserService, type UserView, toUserView } from '@gatehouse/accounts';
import { type TwoWayRequest, parseTextSort, textSortParam } from '@gatehouse/database';
import { ClientService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { HandoverService } from '@gatehouse/handovers';
import { InvitationError, InvitationService } from '@gatehouse/invitations';
import { AccessDecisionService } from '@gatehouse/provisioning';
import {
  ACCESS_REQUEST_STATUSES,
  type AccessRequestForm,
  AccessRequestError,
  AccessRequestErrorCode,
  AccessRequestService,
  type AccessRequestStatus,
  type AccessRequestView,
  accessRequestFromForm,
} from '@gatehouse/requests';
import { type FieldErrors, html, when } from '@gatehouse/views';
import { ApproveAccessRequestDto, RejectAccessRequestDto } from '../../dto/access-requests.dto.js';
import { field, fieldList, formErrors } from '../frame/console-forms.js';
import { cursorWindow, queryText } from '../frame/console-paging.js';
import { OrganisationService } from '@gatehouse/organisations';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { REQUEST_TEXT_FIELDS, requestForm } from './request-form.pages.js';
import { requestDetail, requestQueue, whatText } from './requests.pages.js';

const notWaiting = (error: unknown) => error instanceof AccessRequestError && error.code === AccessRequestErrorCode.NotSubmitted;

/** The public form's messages speak to the requester; here staff type for them. */
const staffWords = (message: string) => message.replace(/^Enter your /, 'Enter the requester’s ');
/** The columns the list sorts by (besides age, its default), by their names in the URL. */
const SORTS = ['requester', 'organisation'] as const;

interface DecisionForm {
  approve?: { note: string; sections: string[]; expiresInHours: string };
  reject?: { note: string };
  errors?: FieldErrors;
}

/**
 * Access requests: the queue by state, one request with its decision form and its trail, and
 * filing a request for someone — `AccessRequestService` and `AccessDecisionService`, the REST
 * API's use cases, with the signed-in person as the actor.
 */
@Injectable()
export class RequestsPresenter {
  constructor(
    private readonly requests: AccessRequestService,
    private readonly decisions: AccessDecisionService,
    private readonly invitations: InvitationService,
    private readonly handovers: HandoverService,
    private readonly docs: DocService,
    private readonly users: UserService,
    private readonly clients: ClientService,
    private readonly organisations: OrganisationService,
  ) {}

  async queue(who: ConsolePrincipal, query: Record<string, unknown>): Promise<ConsoleView> {
    const asked = queryText(query, 'status') || 'submitted';
    const known = asked === 'all' || ACCESS_REQUEST_STATUSES.includes(asked as AccessRequestStatus);
    const state = known ? asked : 'submitted';
    const status = state === 'all' ? undefined : (state as AccessRequestStatus);
    const sort = parseTextSort(queryText(query, 'sort'), SORTS);
    const q = queryText(query, 'q').trim().slice(0, 200);
    const fetch = (request: TwoWayRequest) => this.requests.browse(who.tenantId, { status, search: q, sort, ...request, limit: 50 });
    const window = await cursorWindow(fetch, { after: queryText(query, 'after'), before: queryText(query, 'before') });
    return {
      title: 'Access requests',
      lead: 'People who asked for an account or for API access, oldest first.',
      action: who.permissions.includes('Requests.Decide') ? html`<a class="button" href="${who.base}/requests/new">File a request</a>` : undefined,
      body: requestQueue({ base: who.base, state, q, sort: sort ? textSortParam(sort) : '', requests: window.items, previous: window.previous, next: window.next }),
      flash: known ? undefined : [{ kind: 'error', text: `There is no state "${asked}": showing the requests waiting for a decision.` }],
      status: known ? 200 : 400,
    };
  }

  async detail(who: ConsolePrincipal, id: string, form: DecisionForm = {}): Promise<ConsoleView> {
    const request = await this.requests.get(who.tenantId, id);
    const mayReadClient = request.clientId !== null && who.permissions.includes('Clients.Read');
    const [invitation, handovers, client, sections, user, decider, filer] = await Promise.all([
      request.invitationId && who.permissions.includes('Invitations.Manage') ? this.invitations.get(who.tenantId, request.invitationId) : null,
      mayReadClient ? this.handovers.list(who.tenantId, request.clientId!) : null,
      mayReadClient ? this.clients.get(who.tenantId, request.clientId!) : null,
      this.docs.list(who.tenantId, { limit: 200 }).then((p) => p.items.map((s) => ({ value: s.slug, label: s.title, hint: `(${s.slug})` }))),
      this.person(who, request.userId),
      this.person(who, request.decidedByUserId),
      this.person(who, request.filedByUserId),
    ]);
    const errors = form.errors ?? {};
    const organisationName = request.organisationId ? (await this.organisations.names(who.tenantId, [request.organisationId])).get(request.organisationId) : undefined;
    return {
      title: `${request.requesterName}: ${whatText(request)}`,
      breadcrumbs: [{ label: 'Access requests', href: `${who.base}/requests` }, { label: request.requesterName }],
      body: requestDetail({
        base: who.base,
        csrf: who.csrfToken,
        request,
        sections,
        approve: form.approve ?? { note: '', sections: [], expiresInHours: '168' },
        reject: form.reject ?? { note: '' },
        errors,
        invitation,
        client,
        user,
        decider,
        organisation: organisationName ? { id: request.organisationId!, name: organisationName } : null,
        organisationLinked: who.permissions.includes('Users.Read'),
        filer,
        handovers: handovers?.filter((h) => h.accessRequestId === request.id) ?? null,
        mayDecide: who.permissions.includes('Requests.Decide'),
      }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  /** A person named on the page, for those who may read users (REST: Users.Read); else `null`. */
  private async person(who: ConsolePrincipal, id: string | null): Promise<UserView | null> {
    if (!id || !who.permissions.includes('Users.Read')) return null;
    const user = await this.users.findById(who.tenantId, id);
    return user ? toUserView(user) : null;
  }

  async approve(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleResult> {
    const approve = { note: field(req, 'note'), sections: fieldList(req, 'sections'), expiresInHours: field(req, 'expiresInHours').trim() };
    const request = await this.requests.get(who.tenantId, id);
    const input = {
      note: approve.note.trim() ? approve.note : undefined,
      ...(request.account && approve.sections.length
        ? { sections: approve.sections, expiresInHours: /^\d{1,4}$/.test(approve.expiresInHours) ? Number(approve.expiresInHours) : approve.expiresInHours }
        : {}),
    };
    const errors = await formErrors(ApproveAccessRequestDto, input);
    if (errors.note) errors.approveNote = errors.note;
    if (errors.expiresInHours) errors.expiresInHours = 'Enter a number of hours from 1 to 720.';
    if (Object.keys(errors).length) return this.detail(who, id, { approve, errors });
    let done: AccessRequestView;
    try {
      done = await this.decisions.approve(who.tenantId, who, id, input as { note?: string; sections?: string[]; expiresInHours?: number });
    } catch (error) {
      if (notWaiting(error)) return this.alreadyDecided(who, id);
      if (!(error instanceof InvitationError)) throw error; // nothing was created: one transaction
      return this.detail(who, id, { approve, errors: { sections: `${error.message} Nothing was created; choose the sections again.` } });
    }
    const made = [done.userId ? `the user account was created and ${done.sections.length ? 'the invitation sent (its link sets the password)' : 'the activation link sent'}` : '', done.clientId ? 'the client was created and awaits scopes from the IT department' : ''].filter(Boolean).join('; ');
    return { redirect: `${who.base}/requests/${id}`, flash: { kind: 'success', text: `Approved the request of ${done.requesterName}: ${made}.` } };
  }

  async reject(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleResult> {
    const reject = { note: field(req, 'note') };
    const errors = await formErrors(RejectAccessRequestDto, { note: reject.note });
    if (errors.note) return this.detail(who, id, { reject, errors: { rejectNote: errors.note } });
    let done: AccessRequestView;
    try {
      done = await this.decisions.reject(who.tenantId, who, id, { note: reject.note });
    } catch (error) {
      if (notWaiting(error)) return this.alreadyDecided(who, id);
      throw error;
    }
    return { redirect: `${who.base}/requests/${id}`, flash: { kind: 'success', text: `Rejected the request of ${done.requesterName}; your note was mailed to ${done.requesterEmail}.` } };
  }

  /** A decision on a request decided meanwhile (a second tab, a colleague): its page, saying who decided it and when. */
  private async alreadyDecided(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const request = await this.requests.get(who.tenantId, id);
    const decider = request.decidedByUserId ? await this.users.findById(who.tenantId, request.decidedByUserId) : null;
    const by = decider ? ` by ${decider.displayName}` : '';
    const at = request.decidedAt ? ` ${when(new Date(request.decidedAt))}` : '';
    const text = request.status === 'approved' || request.status === 'rejected'
      ? `Already ${request.status}${by}${at}. Nothing was done again; this is the request as it is now.`
      : `This request is not waiting for a decision (it is ${request.status}). Nothing was done; this is the request as it is now.`;
    return { redirect: `${who.base}/requests/${id}`, flash: { kind: 'warning', text } };
  }

  showNew(who: ConsolePrincipal, values: Partial<AccessRequestForm> = {}, errors: FieldErrors = {}): ConsoleView {
    return {
      title: 'File an access request',
      breadcrumbs: [{ label: 'Access requests', href: `${who.base}/requests` }, { label: 'File a request' }],
      body: requestForm({ base: who.base, csrf: who.csrfToken, values, errors }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  async file(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const texts = Object.fromEntries(REQUEST_TEXT_FIELDS.map((name) => [name, field(req, name)]));
    const values = { ...texts, wantsAccount: field(req, 'wantsAccount') === 'yes', wantsApi: field(req, 'wantsApi') === 'yes' } as AccessRequestForm;
    try {
      const filed = await this.requests.file(who.tenantId, who, accessRequestFromForm(values));
      return { redirect: `${who.base}/requests/${filed.id}`, flash: { kind: 'success', text: `The request of ${filed.requesterName} was filed and waits for a decision; the contact persons were told.` } };
    } catch (error) {
      if (!(error instanceof AccessRequestError) || error.code !== AccessRequestErrorCode.Invalid) throw error;
      const errors: FieldErrors = {};
      for (const problem of error.fields) errors[problem.field.replace(/^(account|api)\./, '')] ??= staffWords(problem.message);
      return this.showNew(who, values, errors);
    }
  }
}
