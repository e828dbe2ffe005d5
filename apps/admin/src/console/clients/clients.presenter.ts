import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ClientBrowseService, type ClientState, ClientError, ClientErrorCode, ClientService } from '@gatehouse/clients';
import { parseTextSort, textSortParam } from '@gatehouse/database';
import { HandoverService } from '@gatehouse/handovers';
import { type FieldErrors, html } from '@gatehouse/views';
import { CreateClientDto } from '../../dto/clients.dto.js';
import { field, fieldList, formErrors } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import { confirmation } from './client-credentials.pages.js';
import {
  type ClientListQuery,
  type CreateClientForm,
  STATE_LABELS,
  clientList,
  createClientForm,
} from './clients.pages.js';

const STATES = Object.keys(STATE_LABELS) as ClientState[];
const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 400) : undefined);
const sortOf = (value: unknown) => parseTextSort(text(value), ['name', 'state']);

/**
 * The Clients page group: the list, creating a client, the client page, its scopes (the REST
 * `PUT /clients/{id}/scopes` use case) and disabling or enabling it — each through ClientService
 * with the signed-in person as the actor.
 */
@Injectable()
export class ClientsPresenter {
  constructor(
    private readonly clients: ClientService,
    private readonly browser: ClientBrowseService,
    private readonly detail: ClientDetail,
    private readonly handovers: HandoverService,
  ) {}

  async list(who: ConsolePrincipal, raw: Record<string, unknown>): Promise<ConsoleView> {
    const query: ClientListQuery = {
      q: text(raw.q),
      state: text(raw.state),
      api: text(raw.api),
      secrets: text(raw.secrets),
      handovers: text(raw.handovers),
      sort: sortOf(raw.sort) ? textSortParam(sortOf(raw.sort)!) : '',
      before: text(raw.before),
      after: text(raw.after),
    };
    const state = STATES.find((s) => s === query.state);
    const [page, apis] = await Promise.all([
      this.browser.browse(who.tenantId, {
        search: query.q,
        state,
        apiId: query.api,
        expiringSecrets: query.secrets === 'expiring',
        expiredHandovers: query.handovers === 'expired',
        before: query.before,
        after: query.after,
        sort: sortOf(query.sort),
      }),
      this.detail.assignableApis(who.tenantId),
    ]);
    return {
      title: 'Clients',
      lead: 'Machine clients of the client credentials grant: their state, scopes and credentials.',
      action: who.permissions.includes('Clients.Manage')
        ? html`<a class="button" href="${who.base}/clients/new">New client</a>`
        : undefined,
      body: clientList({ base: who.base, query, apis, clients: page.items, newer: page.newer, older: page.older }),
    };
  }

  showCreate(who: ConsolePrincipal, values: CreateClientForm = {}, errors: FieldErrors = {}): ConsoleView {
    return formView({
      title: 'New client',
      breadcrumbs: [{ label: 'Clients', href: `${who.base}/clients` }, { label: 'New client' }],
      body: createClientForm({ base: who.base, csrf: who.csrfToken, values, errors }),
      errors,
    });
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: CreateClientForm = {
      displayName: field(req, 'displayName').trim(),
      contactEmail: field(req, 'contactEmail').trim(),
    };
    const input = { displayName: values.displayName, contactEmail: values.contactEmail || undefined };
    const errors = await formErrors(CreateClientDto, input);
    if (Object.keys(errors).length) return this.showCreate(who, values, errors);
    const client = await this.clients.create(who.tenantId, who, {
      displayName: input.displayName!,
      contactEmail: input.contactEmail,
    });
    const next =
      client.state === 'active'
        ? 'It is active.'
        : 'It awaits scopes: the IT department assigns them, then send its credentials.';
    return {
      redirect: `${who.base}/clients/${client.clientId}`,
      flash: { kind: 'success', text: `Client ${client.displayName} created. ${next}` },
    };
  }

  show(who: ConsolePrincipal, clientId: string): Promise<ConsoleView> {
    return this.detail.show(who, clientId);
  }

  /** One checkbox per scope: the checked ones replace the granted set (the REST `PUT` use case). */
  async setScopes(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const requested = fieldList(req, 'scopes');
    try {
      const before = await this.clients.get(who.tenantId, clientId);
      const waiting = before.state === 'awaiting_scopes';
      const earlier = waiting ? new Set((await this.handovers.list(who.tenantId, clientId)).map((h) => h.id)) : null;
      const after = await this.clients.setScopes(who.tenantId, who, clientId, requested);
      const sentNow = earlier && after.state === 'active' ? await this.newHandovers(who, clientId, earlier) : [];
      return {
        redirect: `${who.base}/clients/${clientId}`,
        flash: { kind: 'success', text: scopesMessage(before.displayName, before.state, after, sentNow) },
      };
    } catch (error) {
      if (
        error instanceof ClientError &&
        (error.code === ClientErrorCode.UnknownScopes || error.code === ClientErrorCode.AdminScopesNotAssignable)
      ) {
        const message = `${error.message}. They may have been removed meanwhile: check the list and save again.`;
        return this.detail.show(who, clientId, { scopes: requested, scopesError: message, status: 400 });
      }
      throw error;
    }
  }

  /** The recipients of handovers the activation sent by itself (an approved access request's first one). */
  private async newHandovers(who: ConsolePrincipal, clientId: string, earlier: Set<string>): Promise<string[]> {
    const now = await this.handovers.list(who.tenantId, clientId);
    return now.filter((h) => !earlier.has(h.id)).map((h) => h.recipientEmail);
  }

  async confirmDisable(who: ConsolePrincipal, clientId: string): Promise<ConsoleView> {
    const client = await this.clients.get(who.tenantId, clientId);
    const path = `${who.base}/clients/${clientId}`;
    return {
      title: 'Disable the client?',
      breadcrumbs: [
        { label: 'Clients', href: `${who.base}/clients` },
        { label: client.displayName, href: path },
        { label: 'Disable' },
      ],
      body: confirmation({
        action: `${path}/disable`,
        back: path,
        csrf: who.csrfToken,
        object: html`Disable <strong>${client.displayName}</strong> (client id <code>${client.clientId}</code>).`,
        effect:
          'Its next token request fails, with any of its secrets or certificates, until it is enabled again. Tokens it already holds stay valid until they expire.',
        submit: 'Disable the client',
      }),
    };
  }

  async disable(who: ConsolePrincipal, clientId: string): Promise<ConsoleResult> {
    const client = await this.clients.disable(who.tenantId, who, clientId);
    return {
      redirect: `${who.base}/clients/${clientId}`,
      flash: { kind: 'success', text: `${client.displayName} is disabled: its token requests fail from now on.` },
    };
  }

  async enable(who: ConsolePrincipal, clientId: string): Promise<ConsoleResult> {
    const client = await this.clients.enable(who.tenantId, who, clientId);
    const text =
      client.state === 'active'
        ? `${client.displayName} is enabled and gets tokens again.`
        : `${client.displayName} is enabled and awaits scopes.`;
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
  }
}

function scopesMessage(
  name: string,
  before: ClientState,
  after: { scopes: string[]; state: ClientState },
  handedTo: readonly string[],
): string {
  const granted = after.scopes.length
    ? `${name} may now request: ${after.scopes.join(', ')}.`
    : `${name} holds no scope now.`;
  if (before === 'awaiting_scopes' && after.state === 'active') {
    return handedTo.length
      ? `${granted} It is active, and its credentials went out by handover link to ${handedTo.join(', ')}.`
      : `${granted} It is active: send its credentials under Credentials.`;
  }
  if (before === 'active' && after.state === 'awaiting_scopes')
    return `${granted} It awaits scopes again and gets no tokens.`;
  return `${granted} It acts on the next token request.`;
}
