import { type SafeHtml, csrfInput, curlTokenRequest, html, softBreaks } from '@gatehouse/views';
import type { HandoverContact } from '@gatehouse/handovers';
import type { RevealedCredentials } from '@gatehouse/provisioning';
import { utc } from './request.pages.js';

/** Whom a partner asks: the person by name with their address, or the operating company when nobody is known. */
export function askWhom(contact: HandoverContact | null, tenantName: string): SafeHtml {
  return contact
    ? html`${contact.name} (<a href="mailto:${contact.email}">${contact.email}</a>)`
    : html`your contact at ${tenantName}`;
}

export function handoverPage(input: {
  csrf: string;
  action: string;
  tenantName: string;
  clientName: string;
  clientId: string;
  expiresAt: Date;
  contact: HandoverContact | null;
}): SafeHtml {
  return html`<p>
      ${input.tenantName} sends you the credentials of the API client <strong class="name">${input.clientName}</strong>
      (client id <code>${input.clientId}</code>).
    </p>
    <p>
      <strong>Reveal</strong> creates a new client secret now and shows it once, with the token endpoint, the scope to
      request and a ready-to-paste token request. Have your secret store ready: the page cannot be shown again.
    </p>
    <p class="hint">This link works once, until ${utc(input.expiresAt)}. Questions: ${askWhom(input.contact, input.tenantName)}.</p>
    <form method="post" action="${input.action}">
      ${csrfInput(input.csrf)}
      <button type="submit">Reveal</button>
    </form>`;
}

function msalSnippet(c: RevealedCredentials): string {
  return [
    `import { ConfidentialClientApplication } from '@azure/msal-node';`,
    ``,
    `const app = new ConfidentialClientApplication({`,
    `  auth: {`,
    `    clientId: '${c.clientId}',`,
    `    // Inline to try it out; in your code, read the secret from your secret store.`,
    `    clientSecret: '${c.secret}',`,
    `    authority: '${c.authority}',`,
    `    knownAuthorities: ['${new URL(c.authority).host}'],`,
    `  },`,
    `});`,
    `const { accessToken } = await app.acquireTokenByClientCredential({ scopes: ['${c.scopes[0] ?? ''}'] });`,
  ].join('\n');
}

/**
 * A value with its Copy button (the Web UI's script adds it): on a narrow screen the value wraps
 * at its joints, and the button copies its text whole.
 */
function copyable(what: string, value: string, className = 'value', id?: string): SafeHtml {
  return id
    ? html`<code class="${className}" data-copy="${what}" id="${id}">${softBreaks(value)}</code>`
    : html`<code class="${className}" data-copy="${what}">${softBreaks(value)}</code>`;
}

/** A command or code, its Copy button under it. */
function snippet(what: string, text: string): SafeHtml {
  return html`<pre class="snippet joints" data-copy="${what}"><code>${softBreaks(text)}</code></pre>`;
}

/** The one answer that carries the secret. */
export function revealedPage(c: RevealedCredentials): SafeHtml {
  const expires = new Date(c.secretExpiresAt);
  return html`<p class="notice" role="status">
      Copy these values now. This page cannot be shown again: once you leave or reload it, the secret is gone.
    </p>
    <dl class="credentials reveal">
      <dt>Client</dt>
      <dd><span class="name">${c.clientName}</span></dd>
      <dt>Client id</dt>
      <dd>${copyable('client id', c.clientId, 'value', 'client-id')}</dd>
      <dt>Client secret</dt>
      <dd>${copyable('client secret', c.secret, 'secret', 'client-secret')}</dd>
      <dt>Secret expires</dt>
      <dd>${utc(expires)}</dd>
      <dt>Scope</dt>
      <dd>${c.scopes.map((scope) => copyable('scope', scope))}</dd>
      <dt>Token endpoint</dt>
      <dd>${copyable('token endpoint', c.tokenEndpoint)}</dd>
      <dt>Tenant</dt>
      <dd><span class="name">${c.tenantName}</span> (<code>${c.tenantId}</code>)</dd>
    </dl>
    <h2>Token request with curl</h2>
    ${snippet('token request', curlTokenRequest({ ...c, scope: c.scopes[0] ?? '' }))}
    <h2>MSAL for Node.js</h2>
    ${snippet('MSAL code', msalSnippet(c))}
    <h2>What next</h2>
    <p>
      Keep the secret in your secret store, never in source code or a ticket. Request a token with these values, then
      send it with each API call as <code>Authorization: Bearer &lt;token&gt;</code> until it expires. Ask
      ${askWhom(c.contact, c.tenantName)} for a new secret before ${utc(expires)}.
    </p>`;
}
