import { type SafeHtml, html, utc } from '@gatehouse/views';
import { type AccessRequestForm, EMAIL_MAX, type FieldProblem, NAME_MAX, TEXT_MAX } from '@gatehouse/requests';

/** What the form holds, as typed (re-shown after a refusal). */
export type RequestFormValues = AccessRequestForm;

export const EMPTY_REQUEST_FORM: RequestFormValues = {
  requesterName: '',
  requesterEmail: '',
  organisation: '',
  wantsAccount: false,
  documentation: '',
  reason: '',
  wantsApi: false,
  systemName: '',
  technicalContactEmail: '',
  purpose: '',
};

/** Problem field (as the rules name it) → the form control it belongs to. */
const CONTROL_OF: Record<string, string> = {
  requesterName: 'requester-name',
  requesterEmail: 'requester-email',
  organisation: 'organisation',
  'account.documentation': 'documentation',
  'account.reason': 'reason',
  'api.systemName': 'system-name',
  'api.technicalContactEmail': 'technical-contact-email',
  'api.purpose': 'purpose',
  kind: 'wants-account',
};

interface FieldSpec {
  id: string;
  name: keyof RequestFormValues;
  label: string;
  hint?: string;
  type?: 'text' | 'email' | 'textarea';
  max: number;
  autocomplete?: string;
}

function errorOf(problems: FieldProblem[], id: string): string | undefined {
  return problems.find((p) => CONTROL_OF[p.field] === id)?.message;
}

function field(spec: FieldSpec, values: RequestFormValues, problems: FieldProblem[]): SafeHtml {
  const error = errorOf(problems, spec.id);
  const described = [spec.hint ? `${spec.id}-hint` : '', error ? `${spec.id}-error` : ''].filter(Boolean).join(' ');
  const value = String(values[spec.name]);
  const common = html`id="${spec.id}" name="${spec.name}" maxlength="${spec.max}"
  ${described ? html`aria-describedby="${described}"` : ''} ${error ? html`aria-invalid="true"` : ''}`;
  const control =
    spec.type === 'textarea'
      ? html`<textarea ${common} rows="4">${value}</textarea>`
      : html`<input
          type="${spec.type ?? 'text'}"
          ${common}
          value="${value}"
          autocomplete="${spec.autocomplete ?? 'off'}"
        />`;
  return html`<div class="field">
    <label for="${spec.id}">${spec.label}</label>
    ${spec.hint ? html`<p class="hint" id="${spec.id}-hint">${spec.hint}</p>` : ''}
    ${error ? html`<p class="error" id="${spec.id}-error">${error}</p>` : ''} ${control}
  </div>`;
}

function checkbox(id: string, name: string, checked: boolean, label: string, error?: string): SafeHtml {
  return html`<label class="check" for="${id}"
    ><input
      type="checkbox"
      id="${id}"
      name="${name}"
      value="yes"
      ${checked ? 'checked' : ''}
      ${error ? html`aria-invalid="true" aria-describedby="kind-error"` : ''}
    />
    ${label}</label
  >`;
}

function summary(problems: FieldProblem[]): SafeHtml {
  if (!problems.length) return html``;
  return html`<div class="error" role="alert" id="form-error">
    <p>The request was not sent. Please correct ${problems.length === 1 ? 'this field' : 'these fields'}:</p>
    <ul>
      ${problems.map((p) => html`<li><a href="#${CONTROL_OF[p.field] ?? 'requester-name'}">${p.message}</a></li>`)}
    </ul>
  </div>`;
}

const ABOUT_YOU: FieldSpec[] = [
  { id: 'requester-name', name: 'requesterName', label: 'Your name', max: NAME_MAX, autocomplete: 'name' },
  {
    id: 'requester-email',
    name: 'requesterEmail',
    label: 'Your email address',
    hint: 'Your work address: the confirmation link goes there.',
    type: 'email',
    max: EMAIL_MAX,
    autocomplete: 'email',
  },
  { id: 'organisation', name: 'organisation', label: 'Organisation', max: NAME_MAX, autocomplete: 'organization' },
];

const ACCOUNT_PART: FieldSpec[] = [
  { id: 'documentation', name: 'documentation', label: 'Documentation you need', type: 'textarea', max: TEXT_MAX },
  { id: 'reason', name: 'reason', label: 'Why you need it', type: 'textarea', max: TEXT_MAX },
];

const API_PART: FieldSpec[] = [
  { id: 'system-name', name: 'systemName', label: 'Name of the system', max: NAME_MAX },
  {
    id: 'technical-contact-email',
    name: 'technicalContactEmail',
    label: 'Technical contact (email)',
    hint: 'The credentials are sent to this address by a one-time link.',
    type: 'email',
    max: EMAIL_MAX,
  },
  { id: 'purpose', name: 'purpose', label: 'What the system must do', type: 'textarea', max: TEXT_MAX },
];

function fieldset(
  legend: string,
  lead: SafeHtml,
  specs: FieldSpec[],
  values: RequestFormValues,
  problems: FieldProblem[],
) {
  return html`<fieldset>
    <legend>${legend}</legend>
    ${lead} ${specs.map((spec) => field(spec, values, problems))}
  </fieldset>`;
}

/** The public request form: who you are, then a personal account and/or API access for a system. */
export function requestFormPage(input: {
  csrf: string;
  tenantName: string;
  values: RequestFormValues;
  problems: FieldProblem[];
  /** A refusal of the whole form (too many requests). */
  alert?: string;
}): SafeHtml {
  const { values, problems } = input;
  const kindError = errorOf(problems, 'wants-account');
  const accountBox = checkbox(
    'wants-account',
    'wantsAccount',
    values.wantsAccount,
    'I need a personal account for the documentation',
    kindError,
  );
  const apiBox = checkbox('wants-api', 'wantsApi', values.wantsApi, 'I need API access for a system', kindError);
  return html`${input.alert ? html`<p class="error" role="alert" id="form-error">${input.alert}</p>` : ''}
    ${summary(problems)}
    <p>
      Ask ${input.tenantName} for a personal account for its documentation, for API access for one of your systems, or
      both. We send a link to your email address; the request goes to the contact person once you have confirmed it.
    </p>
    <form class="stack request" method="post" action="/request-access" novalidate>
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      ${fieldset('About you', html``, ABOUT_YOU, values, problems)}
      ${
        kindError
          ? html`<p class="error" id="kind-error">${kindError}</p>`
          : html`<p class="hint">Tick one part or both, and fill in the part you tick.</p>`
      }
      ${fieldset('A personal account', accountBox, ACCOUNT_PART, values, problems)}
      ${fieldset('API access for a system', apiBox, API_PART, values, problems)}
      <div hidden>
        <label for="website"
          >Leave this field empty <input type="text" id="website" name="website" tabindex="-1" autocomplete="off"
        /></label>
      </div>
      <div><button type="submit">Send request</button></div>
    </form>`;
}

export function requestSentPage(): SafeHtml {
  return html`<p class="notice" role="status">Thank you. Your request has been received.</p>
    <p>
      A confirmation link is on its way to the email address you gave. Open it within 24 hours and press
      <strong>Confirm</strong>: only then is your request passed to the contact person.
    </p>
    <p>
      No mail after a few minutes? Check your spam folder and the address you typed, then send the request again. An
      address with three requests still waiting gets no new link until one of them is decided or has expired.
    </p>`;
}

/**
 * The confirmation link's page. Nobody has confirmed the address yet, so what the requester typed
 * is shown as theirs, quoted, never as our words.
 */
export function confirmRequestPage(input: {
  csrf: string;
  action: string;
  typed: Array<[string, string]>;
  expiresAt: Date;
}): SafeHtml {
  return html`<p>A request for access was made with your email address. This is what was typed into the form:</p>
    <figure class="quoted">
      <blockquote><dl class="summary">${input.typed.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl></blockquote>
      <figcaption>— as typed by whoever sent the request</figcaption>
    </figure>
    <p>If you sent it, press <strong>Confirm</strong>: it goes to the contact person, who decides on it. If not, close this page.</p>
    <p class="hint">This link works until ${utc(input.expiresAt)}.</p>
    <form method="post" action="${input.action}">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <button type="submit">Confirm</button>
    </form>`;
}

export function requestConfirmedPage(): SafeHtml {
  return html`<p class="notice" role="status">Your request is confirmed and has been passed to the contact person.</p>
    <p>You will receive an email when it has been decided.</p>`;
}

/** `2026-12-01 14:00 UTC`: the one time format of pages and mails. */
export { utc };
