import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  ClientCertificateService,
  ClientError,
  ClientErrorCode,
  ClientService,
  CredentialPolicyError,
  DEFAULT_SECRET_DAYS,
} from '@gatehouse/clients';
import { type FieldErrors, html } from '@gatehouse/views';
import { AddCertificateDto } from '../../dto/certificates.dto.js';
import { IssueSecretDto } from '../../dto/clients.dto.js';
import { field, formErrors } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import {
  type CertificateForm,
  type SecretForm,
  certificateForm,
  confirmation,
  issuedSecretPage,
  newSecretForm,
} from './client-credentials.pages.js';

/** A whole number typed into a form, or the text itself (so the DTO's rule refuses it), or nothing. */
export function wholeNumber(value: string): number | string | undefined {
  if (!value.trim()) return undefined;
  return /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : value;
}

const CERTIFICATE_ERRORS = new Set([
  ClientErrorCode.InvalidCertificate,
  ClientErrorCode.CertificateExpired,
  ClientErrorCode.CertificateTaken,
]);

/**
 * A client's secrets (the new one shown once, on its own page) and certificates in the console.
 * Each action is the REST use case with the person as the actor; the operator-client rule is
 * ClientService's, the same for both. Handovers, the first choice, are ClientHandoversPresenter's.
 */
@Injectable()
export class ClientCredentialsPresenter {
  constructor(
    private readonly clients: ClientService,
    private readonly certificates: ClientCertificateService,
    private readonly detail: ClientDetail,
  ) {}

  async showNewSecret(
    who: ConsolePrincipal,
    clientId: string,
    values: SecretForm = { expiresInDays: String(DEFAULT_SECRET_DAYS) },
    errors: FieldErrors = {},
    error?: string,
  ): Promise<ConsoleView> {
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'New secret');
    return formView({
      title: 'New secret',
      breadcrumbs: crumbs,
      body: newSecretForm({
        action: `${path}/secrets`,
        back: path,
        sendPath: `${path}/handovers/new`,
        csrf: who.csrfToken,
        values,
        errors,
        error,
      }),
      errors,
      error,
    });
  }

  /** Mints a secret (step-up checked by the guard) and shows it on this answer only. */
  async issueSecret(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: SecretForm = {
      displayName: field(req, 'displayName').trim(),
      expiresInDays: field(req, 'expiresInDays').trim(),
    };
    const input = {
      displayName: values.displayName || undefined,
      expiresInDays: wholeNumber(values.expiresInDays ?? ''),
    };
    const errors = await formErrors(IssueSecretDto, input);
    if (Object.keys(errors).length) return this.showNewSecret(who, clientId, values, errors);
    let secret;
    try {
      secret = await this.clients.issueSecret(who.tenantId, who, clientId, input as { displayName?: string; expiresInDays?: number });
    } catch (error) {
      // The tenant's credential policy refused it: the form comes back as typed, the rule beside the field.
      if (!(error instanceof CredentialPolicyError)) throw error;
      return error.field
        ? this.showNewSecret(who, clientId, values, { [error.field]: error.message })
        : this.showNewSecret(who, clientId, values, {}, error.message);
    }
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'New secret');
    const granted = (await this.clients.get(who.tenantId, clientId)).scopes[0];
    return {
      title: 'Copy the new secret now',
      breadcrumbs: crumbs,
      flash: [{ kind: 'success', text: 'Secret created. Copy it now: it will not be shown again.' }],
      body: issuedSecretPage({
        back: path,
        clientId,
        tokenEndpoint: this.detail.tokenEndpoint(who),
        scope: granted ? `${granted.slice(0, granted.lastIndexOf('/'))}/.default` : null,
        secret,
      }),
    };
  }

  async confirmRevokeSecret(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleView> {
    const secret = (await this.clients.listSecrets(who.tenantId, clientId)).find((s) => s.keyId === keyId);
    if (!secret) throw new ClientError(ClientErrorCode.SecretNotFound, 'No such secret.');
    const { crumbs, name, path } = await this.detail.crumbs(who, clientId, 'Revoke secret');
    return {
      title: 'Revoke the secret?',
      breadcrumbs: crumbs,
      body: confirmation({
        action: `${path}/secrets/${keyId}/revoke`,
        back: path,
        csrf: who.csrfToken,
        object: html`Revoke the secret <strong>${secret.displayName || 'without description'}</strong> (hint
          <code>${secret.hint}…</code>) of ${name}.`,
        effect:
          'Clients using this secret will fail at the next token request. Other secrets and certificates keep working.',
        submit: 'Revoke the secret',
      }),
    };
  }

  async revokeSecret(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleResult> {
    await this.clients.revokeSecret(who.tenantId, who, clientId, keyId);
    return {
      redirect: `${who.base}/clients/${clientId}`,
      flash: { kind: 'success', text: 'Secret revoked: token requests with it fail from now on.' },
    };
  }

  async showAddCertificate(
    who: ConsolePrincipal,
    clientId: string,
    values: CertificateForm = {},
    errors: FieldErrors = {},
  ): Promise<ConsoleView> {
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'Add certificate');
    return formView({
      title: 'Add a certificate',
      breadcrumbs: crumbs,
      body: certificateForm({ action: `${path}/certificates`, back: path, csrf: who.csrfToken, values, errors }),
      errors,
    });
  }

  async addCertificate(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: CertificateForm = {
      certificate: field(req, 'certificate'),
      displayName: field(req, 'displayName').trim(),
    };
    const input = { certificate: values.certificate, displayName: values.displayName || undefined };
    const errors = await formErrors(AddCertificateDto, input);
    if (Object.keys(errors).length) return this.showAddCertificate(who, clientId, values, errors);
    try {
      const added = await this.certificates.add(who.tenantId, who, clientId, {
        certificate: input.certificate!,
        displayName: input.displayName,
      });
      return {
        redirect: `${who.base}/clients/${clientId}`,
        flash: {
          kind: 'success',
          text: `Certificate ${added.thumbprint} added: the client may sign its token requests with its key.`,
        },
      };
    } catch (error) {
      if (error instanceof ClientError && CERTIFICATE_ERRORS.has(error.code))
        return this.showAddCertificate(who, clientId, values, { certificate: error.message });
      if (error instanceof CredentialPolicyError) return this.showAddCertificate(who, clientId, values, { certificate: error.message });
      throw error;
    }
  }

  async confirmRemoveCertificate(who: ConsolePrincipal, clientId: string, keyId: string): Promise<ConsoleView> {
    const certificate = (await this.certificates.list(who.tenantId, clientId)).find((c) => c.keyId === keyId);
    if (!certificate) throw new ClientError(ClientErrorCode.CertificateNotFound, 'No such certificate.');
    const { crumbs, name, path } = await this.detail.crumbs(who, clientId, 'Remove certificate');
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
    return {
      redirect: `${who.base}/clients/${clientId}`,
      flash: { kind: 'success', text: 'Certificate removed: token requests signed with it fail from now on.' },
    };
  }
}
