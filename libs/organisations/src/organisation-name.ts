import { OrganisationError, OrganisationErrorCode } from './organisation.errors.js';

export const ORGANISATION_NAME_MAX = 200;

/** The name as stored: trimmed, inner runs of white space as one space; 1 to 200 characters. */
export function organisationName(value: string, field = 'name'): string {
  const name = value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (name.length === 0) throw new OrganisationError(OrganisationErrorCode.InvalidName, `${field}: the name is empty.`, field);
  if ([...name].length > ORGANISATION_NAME_MAX) {
    throw new OrganisationError(OrganisationErrorCode.InvalidName, `${field}: the name is longer than ${ORGANISATION_NAME_MAX} characters.`, field);
  }
  return name;
}

/** The key names are compared by (any case). */
export function normalizedName(name: string): string {
  return name.toLowerCase();
}
