import type { IssuedSecret } from '@gatehouse/clients';
import {
  type FieldErrors,
  type SafeHtml,
  formError,
  html,
  inputField,
  postForm,
  textareaField,
  utc,
  when,
  curlTokenRequest,
} from '@gatehouse/views';

export interface SecretForm {
  displayName?: string;
  expiresInDays?: string;
}

export function newSecretForm(input: {
  action: string;
  back: string;
  sendPath: string;
  csrf: string;
  values: SecretForm;
  errors: FieldErrors;
  error?: string;
}): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}<p class="notice">
      Prefer <a href="${input.sendPath}">Send credentials</a>: the recipient reveals a secret that you never see. Create
      a secret here only when you must hand it over yourself.
    </p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Create the secret',
      aside: html`<a href="${input.back}">Cancel</a>`,
      body: html`${inputField({ name: 'displayName', label: 'Description (optional)', hint: 'Where it is used, e.g. "production".', value: values.displayName, error: errors.displayName, maxlength: 200 })}
      ${inputField({ name: 'expiresInDays', label: 'Expires after (days)', hint: '1 to 730 (180 if empty). The contact is warned 14 days before.', type: 'number', inputmode: 'numeric', value: values.expiresInDays, error: errors.expiresInDays })}`,
    })}`;
}

/** The one page that shows a new secret. */
export function issuedSecretPage(input: {
  back: string;
  clientId: string;
  tokenEndpoint: string;
  scope: string | null;
  secret: IssuedSecret;
}): SafeHtml {
  const { secret } = input;
  const scope = input.scope ?? 'api://<api identifier>/.default';
  return html`<p class="notice" role="status">
      This page shows the secret once. Leaving or reloading it loses the secret: copy it into your secret store now.
    </p>
    <dl class="credentials">
      <dt>Client id</dt>
      <dd><code data-copy="client id">${input.clientId}</code></dd>
      <dt>Client secret</dt>
      <dd><code class="secret" id="client-secret" data-copy="client secret">${secret.secretText}</code></dd>
      <dt>Description</dt>
      <dd>${secret.displayName || 'no description'} (hint <code>${secret.hint}…</code>)</dd>
      <dt>Expires</dt>
      <dd>${when(new Date(secret.expiresAt))}</dd>
      <dt>Token endpoint</dt>
      <dd><code>${input.tokenEndpoint}</code></dd>
    </dl>
    <h2>Token request with curl</h2>
    ${input.scope ? '' : html`<p class="hint">The client has no scopes yet: once the IT department assigns them, request <code>{API identifier}/.default</code>.</p>`}
    <pre
      class="snippet"
    ><code data-copy="token request">${curlTokenRequest({ tokenEndpoint: input.tokenEndpoint, clientId: input.clientId, secret: secret.secretText, scope })}</code></pre>
    <p>
      Keep the secret out of source code and tickets. Create the next one before ${utc(new Date(secret.expiresAt))}.
    </p>
    <p><a class="button" href="${input.back}">I have stored it: back to the client</a></p>`;
}

export interface CertificateForm {
  certificate?: string;
  displayName?: string;
}

export function certificateForm(input: {
  action: string;
  back: string;
  csrf: string;
  values: CertificateForm;
  errors: FieldErrors;
}): SafeHtml {
  const { values, errors } = input;
  return html`<p>
      Paste the client's public certificate (PEM, RSA of 2048 bits or more, or EC P-256). The private key stays on the
      client's machine: never paste it here.
    </p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Add the certificate',
      aside: html`<a href="${input.back}">Cancel</a>`,
      body: html`${textareaField({ name: 'certificate', label: 'Certificate (PEM)', hint: 'From -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.', value: values.certificate, error: errors.certificate, rows: 10, className: 'mono', verbatim: true, required: true })}
      ${inputField({ name: 'displayName', label: 'Description (optional)', value: values.displayName, error: errors.displayName, maxlength: 200 })}`,
    })}`;
}

export interface HandoverForm {
  recipientEmail?: string;
  expiresInHours?: string;
}

export function handoverForm(input: {
  action: string;
  back: string;
  csrf: string;
  contact: string | null;
  values: HandoverForm;
  errors: FieldErrors;
  error?: string;
}): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}
    <p>
      The recipient gets an email with a one-time link. Opening it and pressing <strong>Reveal</strong> creates a new
      secret and shows it to them once, with the token endpoint and a ready-to-paste request. Nobody else ever sees it.
    </p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Send the link',
      aside: html`<a href="${input.back}">Cancel</a>`,
      body: html`${inputField({ name: 'recipientEmail', label: 'Recipient email', hint: input.contact ? `The technical contact (${input.contact}) unless you name someone else.` : 'The client has no contact address: name the recipient.', type: 'email', value: values.recipientEmail, error: errors.recipientEmail, verbatim: true, autocomplete: 'off' })}
      ${inputField({ name: 'expiresInHours', label: 'Link valid for (hours)', hint: '1 to 168 (72 if empty).', type: 'number', inputmode: 'numeric', value: values.expiresInHours, error: errors.expiresInHours })}`,
    })}`;
}

/** A destructive action asked once: the object, the effect, one red button and a way back. */
export function confirmation(input: {
  action: string;
  back: string;
  csrf: string;
  object: SafeHtml;
  effect: string;
  submit: string;
}): SafeHtml {
  return html`<p>${input.object}</p>
    <p class="notice">${input.effect}</p>
    ${postForm({ action: input.action, csrf: input.csrf, submit: input.submit, button: 'danger', body: html``, aside: html`<a href="${input.back}">Cancel</a>` })}`;
}
