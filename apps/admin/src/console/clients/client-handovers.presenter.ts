import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ClientService, CredentialPolicyError } from '@gatehouse/clients';
import { DEFAULT_HANDOVER_HOURS, HandoverError, HandoverErrorCode, HandoverResendService, HandoverService } from '@gatehouse/handovers';
import { type FieldErrors, html, utc } from '@gatehouse/views';
import { CreateHandoverDto } from '../../dto/access-requests.dto.js';
import { field, formErrors } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import { wholeNumber } from './client-credentials.presenter.js';
import { type HandoverForm, confirmation, handoverForm } from './client-credentials.pages.js';

const RECIPIENT_ERRORS = new Set([HandoverErrorCode.NoRecipient, HandoverErrorCode.InvalidRecipient]);

/**
 * "Send credentials": a one-time link mailed to the recipient, who reveals a secret nobody else
 * sees (the REST `POST /clients/{id}/handovers`), and revoking one (`POST /handovers/{id}/revoke`).
 */
@Injectable()
export class ClientHandoversPresenter {
  constructor(
    private readonly clients: ClientService,
    private readonly handovers: HandoverService,
    private readonly resends: HandoverResendService,
    private readonly detail: ClientDetail,
  ) {}

  async showHandover(
    who: ConsolePrincipal,
    clientId: string,
    typed?: HandoverForm,
    errors: FieldErrors = {},
    error?: string,
  ): Promise<ConsoleView> {
    const client = await this.clients.get(who.tenantId, clientId);
    const values = typed ?? {
      recipientEmail: client.contactEmail ?? '',
      expiresInHours: String(DEFAULT_HANDOVER_HOURS),
    };
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'Send credentials');
    return formView({
      title: 'Send credentials',
      breadcrumbs: crumbs,
      body: handoverForm({
        action: `${path}/handovers`,
        back: path,
        csrf: who.csrfToken,
        contact: client.contactEmail,
        values,
        errors,
        error,
      }),
      errors,
      error,
    });
  }

  async createHandover(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: HandoverForm = {
      recipientEmail: field(req, 'recipientEmail').trim(),
      expiresInHours: field(req, 'expiresInHours').trim(),
    };
    const input = {
      recipientEmail: values.recipientEmail || undefined,
      expiresInHours: wholeNumber(values.expiresInHours ?? ''),
    };
    const errors = await formErrors(CreateHandoverDto, input);
    if (Object.keys(errors).length) return this.showHandover(who, clientId, values, errors);
    try {
      const sent = await this.handovers.create(
        who.tenantId,
        who,
        clientId,
        input as { recipientEmail?: string; expiresInHours?: number },
      );
      const text = `Link sent to ${sent.recipientEmail}. It works once, until ${sent.expiresAt.slice(0, 16).replace('T', ' ')} UTC.`;
      return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
    } catch (error) {
      if (error instanceof HandoverError && RECIPIENT_ERRORS.has(error.code))
        return this.showHandover(who, clientId, values, { recipientEmail: error.message });
      if (error instanceof HandoverError && error.code === HandoverErrorCode.ClientDisabled)
        return this.showHandover(who, clientId, values, {}, error.message);
      if (error instanceof CredentialPolicyError) return this.showHandover(who, clientId, values, {}, error.message);
      throw error;
    }
  }

  async confirmRevokeHandover(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleView> {
    const handover = (await this.handovers.list(who.tenantId, clientId)).find((h) => h.id === id);
    if (!handover) throw new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'Revoke handover');
    const effect =
      handover.status === 'revealed'
        ? 'The link was used: revoking it revokes the secret it created. Clients using this secret will fail at the next token request.'
        : 'The link stops working; no secret was created by it.';
    return {
      title: 'Revoke the handover?',
      breadcrumbs: crumbs,
      body: confirmation({
        action: `${path}/handovers/${id}/revoke`,
        back: path,
        csrf: who.csrfToken,
        object: html`Revoke the handover sent to <strong>${handover.recipientEmail}</strong> (${handover.status}).`,
        effect,
        submit: 'Revoke the handover',
      }),
    };
  }

  /** Revokes a handover of THIS client (an id of another client's handover is not found here). */
  async revokeHandover(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleResult> {
    await this.requireOwn(who, clientId, id);
    const revoked = await this.handovers.revoke(who.tenantId, who, id);
    const text = revoked.secretKeyId
      ? 'Handover revoked, and the secret it created with it.'
      : 'Handover revoked: the link no longer works.';
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
  }

  /** Sends an expired handover of THIS client again, to the same recipient (the REST `POST /handovers/{id}/resend`). */
  async resendHandover(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleResult> {
    await this.requireOwn(who, clientId, id);
    const sent = await this.resends.resend(who.tenantId, who, id);
    const text = `A new link went to ${sent.recipientEmail}. It works once, until ${utc(new Date(sent.expiresAt))}; no secret exists until it is revealed.`;
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
  }

  private async requireOwn(who: ConsolePrincipal, clientId: string, id: string): Promise<void> {
    const mine = (await this.handovers.list(who.tenantId, clientId)).some((h) => h.id === id);
    if (!mine) throw new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
  }
}
