import type { ClientView, PolicyBreach } from '@gatehouse/clients';
import { type FieldErrors, type SafeHtml, badge, html, inputField, postForm, textareaField } from '@gatehouse/views';

/** A credential of this client that the tenant's credential policy flags. */
export interface ClientFlag {
  what: SafeHtml;
  breach: PolicyBreach;
}

/** The flag on the client page: which of its credentials are outside the policy, and why (they keep working). */
export function policyFlagsSection(input: { flags: readonly ClientFlag[]; policyPath: string | null }): SafeHtml {
  if (!input.flags.length) return html``;
  return html`<section class="panel" aria-labelledby="policy-flags-heading">
    <h2 id="policy-flags-heading">${badge('outside the policy', 'warn')} Credentials outside the credential policy</h2>
    <p class="hint">
      They were added before the ${input.policyPath ? html`<a href="${input.policyPath}">credential policy</a>` : 'credential policy'}
      or before it changed, and keep working. Replace each with one the policy allows, then revoke it.
    </p>
    <ul>
      ${input.flags.map((flag) => html`<li>${flag.what}: ${flag.breach.message}</li>`)}
    </ul>
  </section>`;
}

/** The limits form as typed: one range a line. */
export interface LimitsForm {
  allowedSourceRanges: string;
  tokensPerHour: string;
}

export function limitsFormValues(client: ClientView): LimitsForm {
  return {
    allowedSourceRanges: (client.allowedSourceRanges ?? []).join('\n'),
    tokensPerHour: client.tokensPerHour === null ? '' : String(client.tokensPerHour),
  };
}

function readOnlyLimits(client: ClientView): SafeHtml {
  const ranges = client.allowedSourceRanges;
  return html`<dl class="summary">
    <dt>Allowed source ranges</dt>
    <dd>${ranges?.length ? ranges.map((r) => html`<code>${r}</code> `) : 'Anywhere'}</dd>
    <dt>Tokens per hour</dt>
    <dd>${client.tokensPerHour === null ? 'No quota' : String(client.tokensPerHour)}</dd>
  </dl>`;
}

/** Network restriction and quota: a form for the IT department, what is set for everybody else. */
export function limitsSection(input: {
  action: string;
  csrf: string;
  client: ClientView;
  canSet: boolean;
  values?: LimitsForm;
  errors?: FieldErrors;
}): SafeHtml {
  const values = input.values ?? limitsFormValues(input.client);
  const errors = input.errors ?? {};
  const body = input.canSet
    ? postForm({
        action: input.action,
        csrf: input.csrf,
        submit: 'Save limits',
        button: 'secondary',
        body: html`${textareaField({ name: 'allowedSourceRanges', label: 'Allowed source ranges (optional)', hint: 'IPv4 or IPv6 CIDRs, one a line (203.0.113.0/24, 2001:db8::/32). Empty: from anywhere. Requests from elsewhere are refused as Entra refuses them (AADSTS53003).', value: values.allowedSourceRanges, error: errors.allowedSourceRanges, rows: 4, className: 'mono', verbatim: true })}
        ${inputField({ name: 'tokensPerHour', label: 'Tokens per hour (optional)', hint: 'Counted by each identity server. Beyond it: 429 with Retry-After. Empty: no quota.', type: 'number', inputmode: 'numeric', value: values.tokensPerHour, error: errors.tokensPerHour })}`,
      })
    : readOnlyLimits(input.client);
  return html`<section class="panel" aria-labelledby="limits-heading">
    <h2 id="limits-heading">Network and quota</h2>
    ${body}
  </section>`;
}
