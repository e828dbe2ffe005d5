import type { ApiView } from '@gatehouse/apis';
import { type ClientView, type ScopeGrantView, UNUSED_SCOPE_DAYS } from '@gatehouse/clients';
import { type SafeHtml, badge, checkboxGroup, html, postForm, when } from '@gatehouse/views';
import type { ClientAbilities } from './client-sections.pages.js';

const scopeString = (api: ApiView, value: string) => `${api.identifier}/${value}`;

/** A granted scope's use in words: "unused for 90 days or more · last used …", "last used …", "never used". */
export function scopeUseText(grant: ScopeGrantView | undefined): string | undefined {
  if (!grant) return undefined;
  const last = grant.lastUsedAt ? `last used ${when(new Date(grant.lastUsedAt))}` : 'never used by a token';
  return grant.unused ? `Unused for ${UNUSED_SCOPE_DAYS} days or more · ${last}` : last;
}

/** The client's grants by scope string. */
export function grantsByScope(client: ClientView): Map<string, ScopeGrantView> {
  return new Map((client.scopeGrants ?? []).map((grant) => [grant.scope, grant]));
}

/** Scopes grouped by API: checkboxes for those who assign scopes, a list for everybody else. */
export function scopesSection(input: {
  base: string;
  csrf: string;
  client: ClientView;
  apis: readonly ApiView[];
  granted: readonly string[];
  can: ClientAbilities;
  error?: string;
}): SafeHtml {
  const { client, apis, granted } = input;
  const withScopes = apis.filter((api) => api.scopes.length > 0);
  const uses = grantsByScope(client);
  const useHint = (scope: string) => scopeUseText(uses.get(scope));
  const body = !withScopes.length
    ? input.can.assignScopes
      ? html`<p class="empty">No API defines scopes yet. <a href="${input.base}/apis">Add an API and its scopes under APIs &amp; scopes</a>, then assign them here.</p>`
      : html`<p class="empty">No API defines scopes yet. The IT department adds them under <a href="${input.base}/apis">APIs &amp; scopes</a>.</p>`
    : input.can.assignScopes
      ? postForm({
          action: `${input.base}/clients/${client.clientId}/scopes`,
          csrf: input.csrf,
          submit: 'Save scopes',
          button: 'secondary',
          body: html`${input.error ? html`<p class="field-error" id="scopes-error">${input.error}</p>` : ''}
          ${withScopes.map((api) =>
            checkboxGroup({
              name: 'scopes',
              id: `api-${api.id}`,
              label: `${api.displayName} (${api.identifier})`,
              options: api.scopes.map((s) => ({
                value: scopeString(api, s.value),
                label: s.value,
                hint: [s.description ? `— ${s.description}` : '', useHint(scopeString(api, s.value)) ?? '']
                  .filter(Boolean)
                  .join(' · ') || undefined,
              })),
              values: granted,
            }),
          )}`,
        })
      : readOnlyScopes(withScopes, granted, useHint);
  const unused = (client.scopeGrants ?? []).filter((grant) => grant.unused);
  return html`<section class="panel" aria-labelledby="scopes-heading">
    <h2 id="scopes-heading">Scopes</h2>
    <p class="hint">What tokens of this client may carry, and when a token last carried each. A change acts on the next token request.</p>
    ${unusedNotice(input.base, client, unused, input.can)}
    ${body}
  </section>`;
}

/** Least privilege: the scopes no token carried for 90 days, and for IT the way to remove them in one step. */
function unusedNotice(base: string, client: ClientView, unused: readonly ScopeGrantView[], can: ClientAbilities): SafeHtml {
  if (!unused.length) return html``;
  const names = html`${unused.map((g) => html`<code class="scope">${g.scope}</code> `)}`;
  return html`<div class="notice" id="unused-scopes">
    <p>
      ${badge('unused', 'warn')} No token carried ${unused.length === 1 ? 'this scope' : `these ${unused.length} scopes`} for
      ${UNUSED_SCOPE_DAYS} days or more: ${names}
    </p>
    ${can.assignScopes
      ? html`<p><a class="button secondary" href="${base}/clients/${client.clientId}/scopes/remove-unused">Remove unused scopes</a></p>`
      : html`<p>The IT department can remove them.</p>`}
  </div>`;
}

function readOnlyScopes(apis: readonly ApiView[], granted: readonly string[], useHint: (scope: string) => string | undefined): SafeHtml {
  const groups = apis
    .map((api) => ({ api, values: api.scopes.filter((s) => granted.includes(scopeString(api, s.value))) }))
    .filter((group) => group.values.length > 0);
  if (!groups.length) return html`<p class="empty">No scopes granted yet. The IT department assigns them.</p>`;
  return html`<ul class="scope-groups">
    ${groups.map(
      (g) =>
        html`<li>
          <strong>${g.api.displayName}</strong>:
          <ul>
            ${g.values.map((s) => html`<li><code class="scope">${s.value}</code> <span class="hint">${useHint(scopeString(g.api, s.value)) ?? ''}</span></li>`)}
          </ul>
        </li>`,
    )}
  </ul>`;
}

