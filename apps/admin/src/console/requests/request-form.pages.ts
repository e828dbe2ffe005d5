import { type AccessRequestForm, EMAIL_MAX, NAME_MAX, TEXT_MAX } from '@gatehouse/requests';
import { type FieldErrors, type SafeHtml, formError, html, inputField, postForm, textareaField } from '@gatehouse/views';

type Text = Exclude<keyof AccessRequestForm, 'wantsAccount' | 'wantsApi'>;
interface Spec {
  name: Text;
  label: string;
  kind?: 'email' | 'text' | 'area';
}

const ABOUT: Spec[] = [
  { name: 'requesterName', label: 'Requester’s name' },
  { name: 'requesterEmail', label: 'Requester’s email address', kind: 'email' },
  { name: 'organisation', label: 'Organisation' },
];
const ACCOUNT: Spec[] = [
  { name: 'documentation', label: 'Documentation they need', kind: 'area' },
  { name: 'reason', label: 'Why they need it', kind: 'area' },
];
const API: Spec[] = [
  { name: 'systemName', label: 'Name of the system' },
  { name: 'technicalContactEmail', label: 'Technical contact’s email address', kind: 'email' },
  { name: 'purpose', label: 'What the system must do', kind: 'area' },
];

/** The form's text fields, in order. */
export const REQUEST_TEXT_FIELDS: Text[] = [...ABOUT, ...ACCOUNT, ...API].map((s) => s.name);

function control(spec: Spec, values: Partial<AccessRequestForm>, errors: FieldErrors): SafeHtml {
  const common = { name: spec.name, label: spec.label, value: values[spec.name] as string | undefined, error: errors[spec.name] };
  if (spec.kind === 'area') return textareaField({ ...common, maxlength: TEXT_MAX });
  const max = spec.kind === 'email' ? EMAIL_MAX : NAME_MAX;
  return inputField({ ...common, type: spec.kind === 'email' ? 'email' : 'text', maxlength: max, autocomplete: 'off', verbatim: spec.kind === 'email' });
}

function part(legend: string, box: { name: 'wantsAccount' | 'wantsApi'; label: string }, specs: Spec[], values: Partial<AccessRequestForm>, errors: FieldErrors): SafeHtml {
  const id = box.name === 'wantsAccount' ? 'wants-account' : 'wants-api';
  return html`<fieldset>
    <legend>${legend}</legend>
    <div class="choice">
      <input type="checkbox" id="${id}" name="${box.name}" value="yes" ${values[box.name] ? html`checked` : ''}
        ${errors.kind ? html`aria-invalid="true" aria-describedby="kind-error"` : ''} />
      <label for="${id}">${box.label}</label>
    </div>
    ${specs.map((spec) => control(spec, values, errors))}
  </fieldset>`;
}

export function requestForm(input: { base: string; csrf: string; values: Partial<AccessRequestForm>; errors: FieldErrors }): SafeHtml {
  const { values, errors } = input;
  return html`<p>For someone who asked you directly. The request starts as waiting for a decision (no address confirmation), and every contact person is told.</p>
    ${formError(errors.kind, 'kind-error')}
    ${postForm({
      action: `${input.base}/requests/new`,
      csrf: input.csrf,
      className: 'stack request',
      submit: 'File the request',
      aside: html`<a href="${input.base}/requests">Cancel</a>`,
      body: html`<fieldset><legend>Who asks</legend>${ABOUT.map((spec) => control(spec, values, errors))}</fieldset>
        ${part('A personal account', { name: 'wantsAccount', label: 'They need a personal account' }, ACCOUNT, values, errors)}
        ${part('API access for a system', { name: 'wantsApi', label: 'They need API access for a system' }, API, values, errors)}`,
    })}`;
}
