/**
 * Validation messages in people's words. class-validator's defaults read like "displayName must be
 * shorter than or equal to 200 characters"; pages and problems say "Display name must be at most
 * 200 characters", naming the field as its form labels it (or, in the REST API, as its JSON name).
 */

/** A field's name as a label when the form gives none: `expiresInDays` → "Expires in days". */
export function fieldLabel(property: string): string {
  if (!/^[a-z][A-Za-z0-9]*$/.test(property)) return property;
  const words = property.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Rephrase = (subject: string, message: string) => string | null;

const number = (message: string, pattern: RegExp): string | null => pattern.exec(message)?.[1] ?? null;

const characters = (n: string) => `${n} character${n === '1' ? '' : 's'}`;

/** Constraint name → the message in plain words (null: keep the library's words). */
const REPHRASE: Readonly<Record<string, Rephrase>> = {
  isEmail: () => 'Enter a valid email address',
  maxLength: (subject, message) => {
    const n = number(message, /or equal to (\d+)/);
    return n ? `${subject} must be at most ${characters(n)}` : null;
  },
  minLength: (subject, message) => {
    const n = number(message, /or equal to (\d+)/);
    return n === '1' ? `${subject} is required` : n ? `${subject} must be at least ${characters(n)}` : null;
  },
  min: (subject, message) => {
    const n = number(message, /less than (-?[\d.]+)/);
    return n ? `${subject} must be at least ${n}` : null;
  },
  max: (subject, message) => {
    const n = number(message, /greater than (-?[\d.]+)/);
    return n ? `${subject} must be at most ${n}` : null;
  },
  isNotEmpty: (subject) => `${subject} is required`,
  isInt: (subject) => `${subject} must be a whole number`,
  isString: (subject) => `${subject} must be text`,
  isUuid: (subject) => `${subject} must be an id (a UUID)`,
  isUrl: (subject) => `${subject} must be a web address (https://…)`,
  isBoolean: (subject) => `${subject} must be true or false`,
  isIn: (subject, message) => {
    const values = /one of the following values: (.*)$/.exec(message)?.[1];
    return values ? `${subject} must be one of: ${values}` : null;
  },
  isEnum: (subject, message) => {
    const values = /one of the following values: (.*)$/.exec(message)?.[1];
    return values ? `${subject} must be one of: ${values}` : null;
  },
  arrayMaxSize: (subject, message) => {
    const n = number(message, /no more than (\d+)/);
    return n ? `${subject} may hold at most ${n} item${n === '1' ? '' : 's'}` : null;
  },
  arrayMinSize: (subject, message) => {
    const n = number(message, /at least (\d+)/);
    return n ? `${subject} must hold at least ${n} item${n === '1' ? '' : 's'}` : null;
  },
};

/**
 * One failing rule of a field, in plain words. `property` is the field's name in the DTO, `subject`
 * how the message names it. A message the DTO wrote itself keeps its words, with the field's
 * name at its start replaced by the subject.
 */
export function validationWords(constraint: string, message: string, property: string, subject: string): string {
  const libraryWords = message.startsWith(`${property} `);
  const rephrased = libraryWords ? REPHRASE[constraint]?.(subject, message) : null;
  if (rephrased) return rephrased;
  return message.startsWith(property) ? subject + message.slice(property.length) : message;
}
