import { randomBytes } from 'node:crypto';
import { type SafeHtml, html } from './html.js';

/** Messages per form field name: what is wrong and what to do. */
export type FieldErrors = Partial<Record<string, string>>;

export interface FieldBase {
  name: string;
  label: string;
  /** Defaults to the field name. */
  id?: string;
  hint?: string;
  error?: string;
  /** Invalid because of a form-wide message (`describedBy` names it), not one of its own. */
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
}

export interface InputField extends FieldBase {
  type?: 'text' | 'email' | 'number' | 'search';
  /** The value typed, kept when the form comes back with an error. */
  value?: string;
  autocomplete?: string;
  inputmode?: 'numeric' | 'text' | 'email';
  maxlength?: number;
  pattern?: string;
  autofocus?: boolean;
  /** Usernames, codes: no autocapitalisation, no spell check. */
  verbatim?: boolean;
  className?: string;
}

/** A password or secret: its value is never written back into the page. */
export interface SecretField extends FieldBase {
  autocomplete: 'current-password' | 'new-password' | 'one-time-code' | 'off';
  minlength?: number;
  autofocus?: boolean;
}

export interface Option {
  value: string;
  label: string;
  hint?: string;
}

function ids(field: FieldBase): { id: string; hint: string; error: string; describedBy: string } {
  const id = field.id ?? field.name;
  const parts = [field.hint ? `${id}-hint` : '', field.error ? `${id}-error` : '', field.describedBy ?? ''].filter(
    Boolean,
  );
  return { id, hint: `${id}-hint`, error: `${id}-error`, describedBy: parts.join(' ') };
}

/** `aria-invalid` and `aria-describedby` for a control, tying its hint and error to it. */
function aria(field: FieldBase): SafeHtml {
  const { describedBy } = ids(field);
  const invalid = field.error || field.invalid;
  return html`${invalid ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
}

function around(field: FieldBase, control: SafeHtml): SafeHtml {
  const { id, hint, error } = ids(field);
  return html`<div class="field">
    <label for="${id}">${field.label}</label>
    ${field.hint ? html`<span class="hint" id="${hint}">${field.hint}</span>` : ''} ${control}
    ${field.error ? html`<p class="field-error" id="${error}">${field.error}</p>` : ''}
  </div>`;
}

export function inputField(field: InputField): SafeHtml {
  const { id } = ids(field);
  const control = html`<input
    type="${field.type ?? 'text'}"
    id="${id}"
    name="${field.name}"
    value="${field.value ?? ''}"
    ${field.className ? html`class="${field.className}"` : ''}
    ${field.autocomplete ? html`autocomplete="${field.autocomplete}"` : ''}
    ${field.inputmode ? html`inputmode="${field.inputmode}"` : ''}
    ${field.maxlength ? html`maxlength="${field.maxlength}"` : ''}
    ${field.pattern ? html`pattern="${field.pattern}"` : ''}
    ${field.verbatim ? html`autocapitalize="none" spellcheck="false"` : ''}
    ${field.required ? html`required` : ''}
    ${field.autofocus ? html`autofocus` : ''}${aria(field)}
  />`;
  return around(field, control);
}

export function secretField(field: SecretField): SafeHtml {
  const { id } = ids(field);
  const control = html`<input
    type="password"
    id="${id}"
    name="${field.name}"
    autocomplete="${field.autocomplete}"
    ${field.minlength ? html`minlength="${field.minlength}"` : ''}
    ${field.required ? html`required` : ''}
    ${field.autofocus ? html`autofocus` : ''}${aria(field)}
  />`;
  return around(field, control);
}

/**
 * Several lines of text (a note, a reason, a PEM certificate); the value typed is kept when the
 * form comes back. `verbatim`: no spell check or capitals (keys, certificates).
 */
export function textareaField(
  field: FieldBase & { value?: string; rows?: number; maxlength?: number; className?: string; verbatim?: boolean },
): SafeHtml {
  const { id } = ids(field);
  // prettier-ignore
  const control = html`<textarea id="${id}" name="${field.name}" rows="${field.rows ?? 4}"
    ${field.className ? html`class="${field.className}"` : ''} ${field.maxlength ? html`maxlength="${field.maxlength}"` : ''}
    ${field.verbatim ? html`autocapitalize="none" spellcheck="false"` : ''} ${field.required ? html`required` : ''}${aria(field)}>${field.value ?? ''}</textarea>`;
  return around(field, control);
}

/** A six-digit code (or a recovery code) from an authenticator app. */
export function codeField(field: FieldBase & { autofocus?: boolean; value?: string }): SafeHtml {
  return inputField({
    ...field,
    value: field.value,
    autocomplete: 'one-time-code',
    inputmode: 'text',
    maxlength: 32,
    verbatim: true,
    className: 'code-input',
  });
}

/** The field of a second-factor step: the code the authenticator app shows now, or a recovery code. */
export function authenticationCodeField(error?: string, autofocus = true): SafeHtml {
  return codeField({
    name: 'code',
    label: 'Authentication code',
    hint: 'The 6-digit code your authenticator app shows now. Lost your phone? Type one of your recovery codes instead.',
    error,
    autofocus,
    required: true,
  });
}

export function selectField(field: FieldBase & { options: Option[]; value?: string }): SafeHtml {
  const { id } = ids(field);
  const control = html`<select id="${id}" name="${field.name}" ${field.required ? html`required` : ''}${aria(field)}>
    ${field.options.map(
      (option) =>
        html`<option value="${option.value}" ${option.value === (field.value ?? '') ? html`selected` : ''}>
          ${option.label}
        </option>`,
    )}
  </select>`;
  return around(field, control);
}

/** A group of checkboxes in a fieldset whose legend names them. */
export function checkboxGroup(
  field: FieldBase & { options: Option[]; values: readonly string[]; legendHidden?: boolean },
): SafeHtml {
  const { id, hint, error, describedBy } = ids(field);
  return html`<fieldset id="${id}" ${describedBy ? html`aria-describedby="${describedBy}"` : ''}>
    <legend${field.legendHidden ? html` class="visually-hidden"` : ''}>${field.label}</legend>
    ${field.hint ? html`<span class="hint" id="${hint}">${field.hint}</span>` : ''}
    ${field.options.map((option, index) => {
      const optionId = `${id}-${index}`;
      return html`<div class="choice">
        <input
          type="checkbox"
          id="${optionId}"
          name="${field.name}"
          value="${option.value}"
          ${field.values.includes(option.value) ? html`checked` : ''}
          ${field.error ? html`aria-invalid="true"` : ''}
        />
        <label for="${optionId}"
          >${option.label}${option.hint ? html` <span class="hint">${option.hint}</span>` : ''}</label
        >
      </div>`;
    })}
    ${field.error ? html`<p class="field-error" id="${error}">${field.error}</p>` : ''}
  </fieldset>`;
}

/** The name of the one-time token every POST form carries (see {@link csrfInput}). */
export const FORM_TOKEN_FIELD = '_once';

/** A fresh one-time token for one copy of a form: 128 random bits. */
export function formToken(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The hidden fields every POST form starts with: the session's CSRF token, and a one-time token
 * naming this copy of the form, so the server acts on it once — a double click, a reload of the
 * POST, or Back and submit again lands on the result of the first sending.
 */
export function csrfInput(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" /><input
      type="hidden"
      name="${FORM_TOKEN_FIELD}"
      value="${formToken()}"
    />`;
}

/** Hidden fields carrying values through a form (never a password or a secret). */
export function hiddenInputs(values: Readonly<Record<string, string | readonly string[]>>): SafeHtml {
  return html`${Object.entries(values).flatMap(([name, value]) =>
    (typeof value === 'string' ? [value] : [...value]).map(
      (one) => html`<input type="hidden" name="${name}" value="${one}" />`,
    ),
  )}`;
}

/** A form-wide message (not tied to one field), announced when the page loads. */
export function formError(message: string | undefined, id = 'form-error'): SafeHtml {
  return message ? html`<p class="error" role="alert" id="${id}">${message}</p>` : html``;
}

export interface FormInput {
  action: string;
  csrf: string;
  submit: string;
  body: SafeHtml;
  /** Secondary controls beside the submit button (a Cancel link). */
  aside?: SafeHtml;
  className?: string;
  /** The button's look: the page's main action (default), a lesser one, or a destructive one. */
  button?: 'primary' | 'secondary' | 'danger';
}

/** A POST form with its CSRF field, the fields, and one submit button. */
export function postForm(form: FormInput): SafeHtml {
  return html`<form method="post" action="${form.action}" class="${form.className ?? 'stack'}" novalidate>
    ${csrfInput(form.csrf)} ${form.body}
    <div class="actions">
      <button type="submit" ${form.button && form.button !== 'primary' ? html`class="${form.button}"` : ''}>
        ${form.submit}</button
      >${form.aside ?? ''}
    </div>
  </form>`;
}
