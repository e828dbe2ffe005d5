import { type SafeHtml, curlTokenRequest, html } from '@gatehouse/views';
import type { RevealedCredentials } from '@gatehouse/provisioning';
import { utc } from './request.pages.js';

export function handoverPage(input: {
  csrf: string;
  action: string;
  tenantName: string;
  clientName: string;
  clientId: string;
  expiresAt: Date;
}): SafeHtml {
  return html`<p>
      ${input.tenantName} sends you the credentials of the API client <strong>${input.clientName}</strong> (client id
      <code>${input.clientId}</code>).
    </p>
    <p>
      <strong>Reveal</strong> creates a new client secret now and shows it once, with the token endpoint, the scope to
      request and a ready-to-paste token request. Have your secret store ready: the page cannot be shown again.
    </p>
    <p class="hint">This link works once, until ${utc(input.expiresAt)}.</p>
    <form method="post" action="${input.action}">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
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

/** The one answer that carries the secret. */
export function revealedPage(c: RevealedCredentials): SafeHtml {
  const expires = new Date(c.secretExpiresAt);
  return html`<p class="notice" role="status">
      Copy these values now. This page cannot be shown again: once you leave or reload it, the secret is gone.
    </p>
    <dl class="credentials">
      <dt>Tenant</dt>
      <dd>${c.tenantName} (<code>${c.tenantId}</code>)</dd>
      <dt>Token endpoint</dt>
      <dd><code>${c.tokenEndpoint}</code></dd>
      <dt>Client id</dt>
      <dd><code id="client-id">${c.clientId}</code></dd>
      <dt>Scope</dt>
      <dd>${c.scopes.map((scope) => html`<code class="scope">${scope}</code> `)}</dd>
      <dt>Client secret</dt>
      <dd><code class="secret" id="client-secret">${c.secret}</code></dd>
      <dt>Secret expires</dt>
      <dd>${utc(expires)}</dd>
    </dl>
    <h2>Token request with curl</h2>
    <pre class="snippet"><code>${curlTokenRequest({ ...c, scope: c.scopes[0] ?? '' })}</code></pre>
    <h2>MSAL for Node.js</h2>
    <pre class="snippet"><code>${msalSnippet(c)}</code></pre>
    <h2>What next</h2>
    <p>
      Keep the secret in your secret store, never in source code or a ticket. Request a token with these values, then
      send it with each API call as <code>Authorization: Bearer &lt;token&gt;</code> until it expires. Ask your contact
      person for a new secret before ${utc(expires)}.
    </p>`;
}
