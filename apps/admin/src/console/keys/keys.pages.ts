import type { SigningKeyView } from '@gatehouse/tokens';
import { type SafeHtml, badge, checkboxGroup, html, postForm, table, timeTag } from '@gatehouse/views';

const STATES: Record<SigningKeyView['status'], SafeHtml> = {
  active: badge('signs now', 'good'),
  next: badge('published, signs next', 'neutral'),
  retired: badge('retired', 'neutral'),
  revoked: badge('revoked', 'bad'),
};

function publication(key: SigningKeyView): SafeHtml | string {
  if (key.status === 'revoked') return 'out of the JWKS: its tokens no longer verify';
  if (key.status === 'retired') return key.published && key.publishedUntil ? html`until ${timeTag(new Date(key.publishedUntil))}` : 'no longer';
  return 'yes';
}

export function keyList(keys: readonly SigningKeyView[]): SafeHtml {
  return table({
    caption: "This tenant's token signing keys, newest first",
    columns: [
      { header: 'Key id', cell: (k: SigningKeyView) => html`<code class="id">${k.kid}</code>` },
      { header: 'Algorithm', cell: (k) => k.algorithm },
      { header: 'State', cell: (k) => STATES[k.status] },
      { header: 'Created', cell: (k) => timeTag(new Date(k.createdAt)) },
      { header: 'Signing since', cell: (k) => (k.activatedAt ? timeTag(new Date(k.activatedAt)) : '—') },
      { header: 'In the JWKS', cell: (k) => publication(k) },
    ],
    rows: keys,
    empty: 'No key yet: the first token request of this tenant creates one.',
  });
}

/** The confirmation before an emergency rollover: what happens, with and without revoking, before the button. */
export function rolloverConfirmation(input: { base: string; csrf: string; active: SigningKeyView | null; algorithm: string }): SafeHtml {
  const current = input.active ? html`the key <code class="id">${input.active.kid}</code>` : 'no key';
  return html`<p>
      A new ${input.algorithm} key signs this tenant's access tokens from the moment you confirm. Today ${current} signs
      them. Verifiers fetch the new key from the JWKS when they first meet its id; API clients change nothing.
    </p>
    <p>
      Without revoking, the previous key is retired: it stays in the JWKS until the last token it signed has expired (at
      most 24 hours), so those tokens keep working.
    </p>
    <div class="flash warning" role="note">
      <p>
        <strong>Revoking the previous key</strong> takes it out of the JWKS at once, on every server:
        <strong>every token it signed stops verifying</strong>, including those of your
        operators' API clients. Clients get working tokens again at their next token request. Do this when the key may
        have leaked.
      </p>
    </div>
    ${postForm({
      action: `${input.base}/keys/rollover`,
      csrf: input.csrf,
      submit: 'Roll over the signing key',
      button: 'danger',
      body: checkboxGroup({
        id: 'revoke-previous',
        name: 'revokePrevious',
        label: 'The previous key',
        options: [
          {
            value: 'yes',
            label: 'Revoke it now: every token it signed stops verifying',
            hint: 'Leave this unticked for a planned change.',
          },
        ],
        values: [],
      }),
      aside: html`<a href="${input.base}/keys">Cancel</a>`,
    })}
    <p class="hint">You confirm with a code from your authenticator app if you have not given one in the last 5 minutes.</p>`;
}
