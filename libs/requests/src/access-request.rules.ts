import { isSingleAddress } from '@gatehouse/mail';

/**
 * The rules of every field of an access request, in one place: the public form, the admin API's
 * DTOs and the service all check with these functions and give the same messages.
 */
export const NAME_MAX = 200;
export const TEXT_MAX = 2000;
export const EMAIL_MAX = 254;

export interface AccountPart {
  documentation: string;
  reason: string;
}

export interface ApiPart {
  systemName: string;
  technicalContactEmail: string;
  purpose: string;
}

export interface AccessRequestInput {
  requesterName: string;
  requesterEmail: string;
  organisation: string;
  account?: AccountPart | null;
  api?: ApiPart | null;
}

export interface FieldProblem {
  field: string;
  message: string;
}

type Kind = 'line' | 'text' | 'email';

const FIELDS = {
  requesterName: { kind: 'line', message: `Enter your name (1 to ${NAME_MAX} characters, one line).` },
  requesterEmail: { kind: 'email', message: 'Enter one email address, such as name@example.com.' },
  organisation: { kind: 'line', message: `Enter your organisation (1 to ${NAME_MAX} characters, one line).` },
  'account.documentation': {
    kind: 'text',
    message: `Say which documentation you need (1 to ${TEXT_MAX} characters).`,
  },
  'account.reason': { kind: 'text', message: `Say why you need it (1 to ${TEXT_MAX} characters).` },
  'api.systemName': { kind: 'line', message: `Enter the name of the system (1 to ${NAME_MAX} characters, one line).` },
  'api.technicalContactEmail': {
    kind: 'email',
    message: 'Enter one email address for the technical contact, such as ops@example.com.',
  },
  'api.purpose': { kind: 'text', message: `Say what the system must do (1 to ${TEXT_MAX} characters).` },
} as const satisfies Record<string, { kind: Kind; message: string }>;

export type RequestField = keyof typeof FIELDS;

export const KIND_MESSAGE = 'Choose a personal account, API access for a system, or both.';

/** One line: no control character at all (CR, LF, NUL, …), nor a Unicode line separator. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Several lines: line breaks and tabs are fine, other control characters (NUL, ESC, …) are not. */
const CONTROL_BUT_BREAKS = /[^\P{Cc}\r\n\t]|[\u2028\u2029]/u;

function length(value: string): number {
  return [...value].length;
}

/** Whether a value is acceptable: control characters count in the raw value, length once trimmed. */
function kindAccepts(kind: Kind, raw: string): boolean {
  const value = raw.trim();
  if (!value) return false;
  switch (kind) {
    case 'line':
      return length(value) <= NAME_MAX && !CONTROL.test(raw);
    case 'text':
      return length(value) <= TEXT_MAX && !CONTROL_BUT_BREAKS.test(raw);
    case 'email':
      return length(value) <= EMAIL_MAX && !CONTROL.test(raw) && isSingleAddress(value);
  }
}

/** The message for a field's value, or `null` when it is acceptable (a CR or LF in one line is not). */
export function checkRequestField(field: RequestField, value: unknown): string | null {
  const rule = FIELDS[field];
  return typeof value === 'string' && kindAccepts(rule.kind, value) ? null : rule.message;
}

/** Every problem of a request at once, so a form can show them all beside their fields. */
export function checkAccessRequest(input: AccessRequestInput): FieldProblem[] {
  const values: Array<[RequestField, unknown]> = [
    ['requesterName', input.requesterName],
    ['requesterEmail', input.requesterEmail],
    ['organisation', input.organisation],
  ];
  if (input.account) {
    values.push(['account.documentation', input.account.documentation], ['account.reason', input.account.reason]);
  }
  if (input.api) {
    values.push(
      ['api.systemName', input.api.systemName],
      ['api.technicalContactEmail', input.api.technicalContactEmail],
      ['api.purpose', input.api.purpose],
    );
  }
  const problems = values.flatMap(([field, value]): FieldProblem[] => {
    const message = checkRequestField(field, value);
    return message ? [{ field, message }] : [];
  });
  if (!input.account && !input.api) problems.push({ field: 'kind', message: KIND_MESSAGE });
  return problems;
}

/** The request with every value trimmed (what is stored). */
export function normalizeAccessRequest(input: AccessRequestInput): AccessRequestInput {
  const t = (value: string) => value.trim();
  return {
    requesterName: t(input.requesterName),
    requesterEmail: t(input.requesterEmail),
    organisation: t(input.organisation),
    account: input.account ? { documentation: t(input.account.documentation), reason: t(input.account.reason) } : null,
    api: input.api
      ? {
          systemName: t(input.api.systemName),
          technicalContactEmail: t(input.api.technicalContactEmail),
          purpose: t(input.api.purpose),
        }
      : null,
  };
}

export const NOTE_MESSAGE = `The note must be 1 to ${TEXT_MAX} characters, without control characters other than line breaks.`;

/** A decision note (optional on approval, required on rejection): trimmed, or the message. */
export function checkNote(value: unknown, required: boolean): string | null {
  if (value === undefined || value === null) return required ? NOTE_MESSAGE : null;
  if (typeof value !== 'string') return NOTE_MESSAGE;
  if (!value.trim()) return required ? NOTE_MESSAGE : null;
  return kindAccepts('text', value) ? null : NOTE_MESSAGE;
}

/** A request as a form posts it: one checkbox per part, the fields of an unticked part ignored. */
export interface AccessRequestForm {
  requesterName: string;
  requesterEmail: string;
  organisation: string;
  wantsAccount: boolean;
  documentation: string;
  reason: string;
  wantsApi: boolean;
  systemName: string;
  technicalContactEmail: string;
  purpose: string;
}

/** The use case's input from the form: the parts ticked, each with its fields. */
export function accessRequestFromForm(values: AccessRequestForm): AccessRequestInput {
  return {
    requesterName: values.requesterName,
    requesterEmail: values.requesterEmail,
    organisation: values.organisation,
    account: values.wantsAccount ? { documentation: values.documentation, reason: values.reason } : null,
    api: values.wantsApi
      ? { systemName: values.systemName, technicalContactEmail: values.technicalContactEmail, purpose: values.purpose }
      : null,
  };
}
