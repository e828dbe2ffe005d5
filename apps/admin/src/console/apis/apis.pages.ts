import type { ApiScopeView, ApiView } from '@gatehouse/apis';
import {
  type FieldErrors,
  type SafeHtml,
  badge,
  html,
  inputField,
  listUrl,
  postForm,
  selectField,
  table,
  timeTag,
} from '@gatehouse/views';
import { copyable } from '../clients/clients.pages.js';

const versionLabel = (version: number) => (version === 1 ? 'v1 (aud = identifier URI)' : 'v2 (aud = app id)');

export function apiList(input: {
  base: string;
  apis: readonly ApiView[];
  next: string | null;
  canManage: boolean;
}): SafeHtml {
  const { base } = input;
  return html`${table({
    caption: 'APIs of this tenant, oldest first',
    columns: [
      {
        header: 'Name',
        cell: (a: ApiView) =>
          html`<a href="${base}/apis/${a.id}">${a.displayName}</a>${a.builtIn ? html` ${badge('built in')}` : ''}`,
      },
      { header: 'Identifier URI', cell: (a) => copyable(a.identifier, `identifier of ${a.displayName}`) },
      { header: 'Scopes', cell: (a) => String(a.scopes.length), numeric: true },
      { header: 'Access tokens', cell: (a) => versionLabel(a.accessTokenVersion) },
    ],
    rows: input.apis,
    empty: input.canManage
      ? 'No APIs yet. Create one with "New API", then add its scopes.'
      : 'No APIs yet. The IT department defines them.',
  })}
  ${
    input.next
      ? html`<nav class="pager" aria-label="Pages">
          <span></span
          ><span><a href="${listUrl(`${base}/apis`, { cursor: input.next })}" rel="next">More APIs →</a></span>
        </nav>`
      : ''
  }`;
}

export interface CreateApiForm {
  identifier?: string;
  displayName?: string;
  accessTokenVersion?: string;
}

export function createApiForm(input: {
  base: string;
  csrf: string;
  values: CreateApiForm;
  errors: FieldErrors;
}): SafeHtml {
  const { values, errors } = input;
  return html`${postForm({
    action: `${input.base}/apis/new`,
    csrf: input.csrf,
    submit: 'Create the API',
    aside: html`<a href="${input.base}/apis">Cancel</a>`,
    body: html`${inputField({ name: 'displayName', label: 'Name', hint: 'As people call it, e.g. "Orders API".', value: values.displayName, error: errors.displayName, required: true, maxlength: 200 })}
    ${inputField({ name: 'identifier', label: 'Identifier URI', hint: 'api://… or https://…, e.g. api://orders. Clients request {identifier}/.default; it cannot change later.', value: values.identifier, error: errors.identifier, required: true, verbatim: true, autocomplete: 'off', maxlength: 200 })}
    ${selectField({
      name: 'accessTokenVersion',
      label: 'Access token version',
      hint: "What the API's token validation expects (Entra's requestedAccessTokenVersion). 2: the audience is the app id, v2 claims. 1: the audience is the identifier URI, v1 claims and issuer.",
      value: values.accessTokenVersion ?? '2',
      error: errors.accessTokenVersion,
      options: [
        { value: '2', label: 'Version 2 (recommended)' },
        { value: '1', label: 'Version 1' },
      ],
    })}`,
  })}`;
}

export interface ScopeForm {
  value?: string;
  description?: string;
}

function summary(base: string, api: ApiView): SafeHtml {
  return html`<section class="panel" aria-labelledby="api-summary">
    <h2 id="api-summary">Summary</h2>
    <dl class="summary">
      <dt>Identifier URI</dt>
      <dd>${copyable(api.identifier, 'identifier URI')}</dd>
      <dt>App id</dt>
      <dd>${copyable(api.appId, 'app id')}</dd>
      <dt>Access tokens</dt>
      <dd>${versionLabel(api.accessTokenVersion)}</dd>
      <dt>Scope to request</dt>
      <dd><code>${api.identifier}/.default</code> — every scope granted to the client</dd>
      <dt>Created</dt>
      <dd>${timeTag(new Date(api.createdAt))}</dd>
    </dl>
    <p><a href="${listUrl(`${base}/clients`, { api: api.id })}">Clients granted a scope of this API</a></p>
  </section>`;
}

function scopeForm(input: {
  base: string;
  csrf: string;
  api: ApiView;
  values: ScopeForm;
  errors: FieldErrors;
}): SafeHtml {
  return html`<h3 id="add-scope">Add a scope</h3>
    ${postForm({
      action: `${input.base}/apis/${input.api.id}/scopes`,
      csrf: input.csrf,
      submit: 'Add the scope',
      button: 'secondary',
      body: html`${inputField({ name: 'value', label: 'Scope', hint: 'Letters, digits and . _ -, e.g. Orders.Read.', value: input.values.value, error: input.errors.value, required: true, verbatim: true, autocomplete: 'off', maxlength: 100 })}
      ${inputField({ name: 'description', label: 'Description (optional)', hint: 'What a client may do with it.', value: input.values.description, error: input.errors.description, maxlength: 500 })}`,
    })}`;
}

export function apiPage(input: {
  base: string;
  csrf: string;
  api: ApiView;
  canManage: boolean;
  values: ScopeForm;
  errors: FieldErrors;
}): SafeHtml {
  const { api } = input;
  const editable = input.canManage && !api.builtIn;
  return html`${summary(input.base, api)}
    <section class="panel" aria-labelledby="scopes-heading">
      <h2 id="scopes-heading">Scopes</h2>
      ${api.builtIn ? html`<p class="hint">The admin API's scopes are the console's permissions: they come only with roles, never by assignment.</p>` : ''}
      ${table({
        caption: `Scopes of ${api.displayName}`,
        columns: [
          { header: 'Scope', cell: (s: ApiScopeView) => html`<code>${s.value}</code>` },
          { header: 'As requested', cell: (s) => html`<code>${api.identifier}/${s.value}</code>` },
          { header: 'Description', cell: (s) => s.description || '—' },
        ],
        rows: api.scopes,
        empty: editable ? 'No scopes yet: add the first one below.' : 'No scopes yet.',
      })}
      ${editable ? scopeForm({ ...input, values: input.values, errors: input.errors }) : ''}
    </section>`;
}
