import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ClientCertificateService, ClientError, ClientErrorCode, ClientService } from '@gatehouse/clients';
import { HandoverError, HandoverErrorCode, HandoverService } from '@gatehouse/handovers';
import { type Crumb, type FieldErrors, html } from '@gatehouse/views';
import { CreateHandoverDto } from '../../dto/access-requests.dto.js';
import { AddCertificateDto } from '../../dto/certificates.dto.js';
import { IssueSecretDto } from '../../dto/clients.dto.js';
import { field, formErrors } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import {
  type CertificateForm,
  type HandoverForm,
  type SecretForm,
  certificateForm,
  confirmation,
  handoverForm,
  issuedSecretPage,
} from './client-credentials.pages.js';
import { newSecretForm } from './client-credentials.pages.js';

/** A whole number typed into a form, or the text itself (so the DTO's rule refuses it), or nothing. */
function wholeNumber(value: string): number | string | undefined {
  if (!value.trim()) return undefined;
  return /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : value;
}

const CERTIFICATE_ERRORS = new Set([ClientErrorCode.InvalidCertificate, ClientErrorCode.CertificateExpired, ClientErrorCode.CertificateTaken]);
const RECIPIENT_ERRORS = new Set([HandoverErrorCode.NoRecipient, HandoverErrorCode.InvalidRecipient]);

/**
 * A client's credentials in the console: secrets (the new one shown once, on its own page),
 * certificates, and handovers (the first choice). Each action is the REST use case with the
 * person as the actor; the operator-client rule is ClientService's, the same for both.
 */
@Injectable()
export class ClientCredentialsPresenter {
  constructor(
    private readonly clients: ClientService,
    private readonly certificates: ClientCertificateService,
    private readonly handovers: HandoverService,
    private readonly detail: ClientDetail,
  ) {}

  private async crumbs(who: ConsolePrincipal, clientId: string, last: string): Promise<{ crumbs: Crumb[]; name: string; path: string }> {
    const client = await this.clients.get(who.tenantId, clientId);
    const path = `${who.base}/clients/${clientId}`;
    const crumbs = [{ label: 'Clients', href: `${who.base}/clients` }, { label: client.displayName, href: path }, { label: last }];
    return { crumbs, name: client.displayName, path };
  }

  async showNewSecret(who: ConsolePrincipal, clientId: string, values: SecretForm = {}, errors: FieldErrors = {}): Promise<ConsoleView> {
    const { crumbs, path } = await this.crumbs(who, clientId, 'New secret');
    return {
      title: 'New secret',
      breadcrumbs: crumbs,
      body: newSecretForm({ action: `${path}/secrets`, back: path, sendPath: `${path}/handovers/new`, csrf: who.csrfToken, values, errors }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  /** Mints a secret (step-up checked by the guard) and shows it on this answer only. */
  async issueSecret(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: SecretForm = { displayName: field(req, 'displayName').trim(), expiresInDays: field(req, 'expiresInDays').trim() };
    const input = { displayName: values.displayName || undefined, expiresInDays: wholeNumber(values.expiresInDays ?? '') };
    const errors = await formErrors(IssueSecretDto, input);
    if (Object.keys(errors).length) return this.showNewSecret(who, clientId, values, errors);
    const secret = await this.clients.issueSecret(who.tenantId, who, clientId, input as { displayName?: string; expiresInDays?: number });
    const { crumbs, path } = await this.crumbs(who, clientId, 'New secret');
    const granted = (await this.clients.get(who.tenantId, clientId)).scopes[0];
    return {
      title: 'Copy the new secret now',
      breadcrumbs: crumbs,
      flash: [{ kind: 'success', text: 'Secret created. Copy it now: it will not be shown again.' }],
      body: issuedSecretPage({ back: path, clientId, tokenEndpoint: this.detail.tokenEndpoint(who), scope: granted ? `${granted.slice(0, granted.lastIndexOf('/'))}/.default` : null, secret }),
    };
  }

  async confirmRevokeSecret(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleView> {
    const secret = (await this.clients.listSecrets(who.tenantId, clientId)).find((s) => s.keyId === keyId);
    if (!secret) throw new ClientError(ClientErrorCode.SecretNotFound, 'No such secret.');
    const { crumbs, name, path } = await this.crumbs(who, clientId, 'Revoke secret');
    return {
      title: 'Revoke the secret?',
      breadcrumbs: crumbs,
      body: confirmation({
        action: `${path}/secrets/${keyId}/revoke`,
        back: path,
        csrf: who.csrfToken,
        object: html`Revoke the secret <strong>${secret.displayName || 'without description'}</strong> (hint <code>${secret.hint}…</code>) of ${name}.`,
        effect: 'Clients using this secret will fail at the next token request. Other secrets and certificates keep working.',
        submit: 'Revoke the secret',
      }),
    };
  }

  async revokeSecret(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleResult> {
    await this.clients.revokeSecret(who.tenantId, who, clientId, keyId);
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text: 'Secret revoked: token requests with it fail from now on.' } };
  }

  async showAddCertificate(who: ConsolePrincipal, clientId: string, values: CertificateForm = {}, errors: FieldErrors = {}): Promise<ConsoleView> {
    const { crumbs, path } = await this.crumbs(who, clientId, 'Add certificate');
    return {
      title: 'Add a certificate',
      breadcrumbs: crumbs,
      body: certificateForm({ action: `${path}/certificates`, back: path, csrf: who.csrfToken, values, errors }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  async addCertificate(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: CertificateForm = { certificate: field(req, 'certificate'), displayName: field(req, 'displayName').trim() };
    const input = { certificate: values.certificate, displayName: values.displayName || undefined };
    const errors = await formErrors(AddCertificateDto, input);
    if (Object.keys(errors).length) return this.showAddCertificate(who, clientId, values, errors);
    try {
      const added = await this.certificates.add(who.tenantId, who, clientId, { certificate: input.certificate!, displayName: input.displayName });
      return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text: `Certificate ${added.thumbprint} added: the client may sign its token requests with its key.` } };
    } catch (error) {
      if (error instanceof ClientError && CERTIFICATE_ERRORS.has(error.code)) return this.showAddCertificate(who, clientId, values, { certificate: error.message });
      throw error;
    }
  }

  async confirmRemoveCertificate(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleView> {
    const certificate = (await this.certificates.list(who.tenantId, clientId)).find((c) => c.keyId === keyId);
    if (!certificate) throw new ClientError(ClientErrorCode.CertificateNotFound, 'No such certificate.');
    const { crumbs, name, path } = await this.crumbs(who, clientId, 'Remove certificate');
    return {
      title: 'Remove the certificate?',
      breadcrumbs: crumbs,
      body: confirmation({
        action: `${path}/certificates/${keyId}/remove`,
        back: path,
        csrf: who.csrfToken,
        object: html`Remove the certificate <code>${certificate.thumbprint}</code> (${certificate.subject}) of ${name}.`,
        effect: 'Clients signing with this certificate will fail at the next token request.',
        submit: 'Remove the certificate',
      }),
    };
  }

  async removeCertificate(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleResult> {
    await this.certificates.remove(who.tenantId, who, clientId, keyId);
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text: 'Certificate removed: token requests signed with it fail from now on.' } };
  }

  async showHandover(who: ConsolePrincipal, clientId: string, values: HandoverForm = {}, errors: FieldErrors = {}, error?: string): Promise<ConsoleView> {
    const client = await this.clients.get(who.tenantId, clientId);
    const { crumbs, path } = await this.crumbs(who, clientId, 'Send credentials');
    return {
      title: 'Send credentials',
      breadcrumbs: crumbs,
      body: handoverForm({ action: `${path}/handovers`, back: path, csrf: who.csrfToken, contact: client.contactEmail, values, errors, error }),
      status: error || Object.keys(errors).length ? 400 : 200,
    };
  }

  async createHandover(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: HandoverForm = { recipientEmail: field(req, 'recipientEmail').trim(), expiresInHours: field(req, 'expiresInHours').trim() };
    const input = { recipientEmail: values.recipientEmail || undefined, expiresInHours: wholeNumber(values.expiresInHours ?? '') };
    const errors = await formErrors(CreateHandoverDto, input);
    if (Object.keys(errors).length) return this.showHandover(who, clientId, values, errors);
    try {
      const sent = await this.handovers.create(who.tenantId, who, clientId, input as { recipientEmail?: string; expiresInHours?: number });
      const text = `Link sent to ${sent.recipientEmail}. It works once, until ${sent.expiresAt.slice(0, 16).replace('T', ' ')} UTC.`;
      return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
    } catch (error) {
      if (error instanceof HandoverError && RECIPIENT_ERRORS.has(error.code)) return this.showHandover(who, clientId, values, { recipientEmail: error.message });
      if (error instanceof HandoverError && error.code === HandoverErrorCode.ClientDisabled) return this.showHandover(who, clientId, values, {}, error.message);
      throw error;
    }
  }

  async confirmRevokeHandover(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleView> {
    const handover = (await this.handovers.list(who.tenantId, clientId)).find((h) => h.id === id);
    if (!handover) throw new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
    const { crumbs, path } = await this.crumbs(who, clientId, 'Revoke handover');
    const effect = handover.status === 'revealed'
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
    const mine = (await this.handovers.list(who.tenantId, clientId)).some((h) => h.id === id);
    if (!mine) throw new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
    const revoked = await this.handovers.revoke(who.tenantId, who, id);
    const text = revoked.secretKeyId ? 'Handover revoked, and the secret it created with it.' : 'Handover revoked: the link no longer works.';
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
  }
}
