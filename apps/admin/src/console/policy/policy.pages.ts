import { CREDENTIAL_KINDS, type CredentialPolicyView, type FlaggedCredential, KIND_LABELS, MAX_CERTIFICATE_POLICY_DAYS, MAX_SECRET_DAYS } from '@gatehouse/clients';
import { type FieldErrors, type SafeHtml, checkboxGroup, formError, html, inputField, postForm, table, utc } from '@gatehouse/views';

/** The policy form as typed (strings), kept when it comes back with errors. */
export interface PolicyForm {
  maxSecretLifetimeDays: string;
  maxCertificateLifetimeDays: string;
  allowedCredentialKinds: string[];
  effectiveFrom: string;
  staleCredentialDays: string;
  disableStaleCredentials: boolean;
}

export function policyFormValues(policy: CredentialPolicyView): PolicyForm {
  return {
    maxSecretLifetimeDays: String(policy.maxSecretLifetimeDays),
    maxCertificateLifetimeDays: policy.maxCertificateLifetimeDays === null ? '' : String(policy.maxCertificateLifetimeDays),
    allowedCredentialKinds: [...policy.allowedCredentialKinds],
    effectiveFrom: policy.effectiveFrom ? policy.effectiveFrom.slice(0, 10) : '',
    staleCredentialDays: String(policy.staleCredentialDays),
    disableStaleCredentials: policy.disableStaleCredentials,
  };
}

const KIND_OPTIONS = CREDENTIAL_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind].charAt(0).toUpperCase() + KIND_LABELS[kind].slice(1) }));

export function policyStatus(policy: CredentialPolicyView, flagged: number, flaggedPath: string): SafeHtml {
  if (!policy.effectiveFrom) {
    return html`<p class="notice">No policy is set: any kind of credential may be added, secrets for up to ${MAX_SECRET_DAYS} days.</p>`;
  }
  const from = new Date(policy.effectiveFrom);
  const when = from.getTime() > Date.now() ? `Takes effect on ${utc(from)}` : `In effect since ${utc(from)}`;
  const count =
    flagged === 0
      ? html`No live credential is outside it.`
      : html`<a href="${flaggedPath}">${flagged} ${flagged === 1 ? 'credential is' : 'credentials are'} outside it</a>: they still work, and are flagged until replaced.`;
  return html`<p class="notice" role="status">${when}. ${count}</p>`;
}

export function policyForm(input: { action: string; csrf: string; values: PolicyForm; errors: FieldErrors; error?: string }): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Save the policy',
      body: html`${inputField({ name: 'maxSecretLifetimeDays', label: 'Longest secret lifetime (days)', hint: `1 to ${MAX_SECRET_DAYS}. A new secret that would live longer is refused; one whose lifetime nobody chose (a handover, the bootstrap) gets this at most.`, type: 'number', inputmode: 'numeric', value: values.maxSecretLifetimeDays, error: errors.maxSecretLifetimeDays, required: true })}
      ${inputField({ name: 'maxCertificateLifetimeDays', label: 'Longest certificate validity (days, optional)', hint: `1 to ${MAX_CERTIFICATE_POLICY_DAYS}, from notBefore to notAfter. Empty: any.`, type: 'number', inputmode: 'numeric', value: values.maxCertificateLifetimeDays, error: errors.maxCertificateLifetimeDays })}
      ${checkboxGroup({ name: 'allowedCredentialKinds', label: 'Kinds of credential that may be added', hint: 'At least one.', options: KIND_OPTIONS, values: values.allowedCredentialKinds, error: errors.allowedCredentialKinds })}
      ${inputField({ name: 'effectiveFrom', label: 'In effect from (optional)', hint: 'A date (YYYY-MM-DD, from 00:00 UTC) or a time in ISO 8601. Empty: now. Credentials added before stay usable and are flagged.', value: values.effectiveFrom, error: errors.effectiveFrom, verbatim: true, autocomplete: 'off' })}
      ${inputField({ name: 'staleCredentialDays', label: 'Stale after (days unused)', hint: '1 to 3650 (90 if empty). Stale credentials are reported to the contacts.', type: 'number', inputmode: 'numeric', value: values.staleCredentialDays, error: errors.staleCredentialDays })}
      ${checkboxGroup({ name: 'disableStaleCredentials', label: 'Stale credentials', options: [{ value: 'yes', label: 'Disable stale credentials as well (reversible, audited)' }], values: values.disableStaleCredentials ? ['yes'] : [], error: errors.disableStaleCredentials })}`,
    })}`;
}

function what(row: FlaggedCredential): SafeHtml {
  if (row.kind === 'secret') return html`Secret <code>${row.label}…</code>`;
  if (row.kind === 'certificate') return html`Certificate <code class="wrap">${row.label}</code>`;
  return html`Federated credential <code>${row.label}</code>`;
}

/** The live credentials outside the policy, each with its client and the rule it breaks. */
export function flaggedList(base: string, rows: FlaggedCredential[]): SafeHtml {
  return table({
    caption: 'Credentials outside the credential policy',
    empty: 'No live credential is outside the policy.',
    rows,
    columns: [
      { header: 'Client', cell: (r: FlaggedCredential) => html`<a href="${base}/clients/${r.clientId}">${r.clientName}</a>` },
      { header: 'Credential', cell: (r) => what(r) },
      { header: 'Added', cell: (r) => utc(r.createdAt) },
      { header: 'Why it is flagged', cell: (r) => r.breach.message },
    ],
  });
}
