import { OrganisationError, OrganisationErrorCode } from '@gatehouse/organisations';
import { type Problem, problem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function organisationStatus(code: OrganisationErrorCode): number {
  switch (code) {
    case OrganisationErrorCode.NotFound:
      return 404;
    case OrganisationErrorCode.InvalidName:
    case OrganisationErrorCode.Unknown:
      return 400;
    case OrganisationErrorCode.NameTaken:
    case OrganisationErrorCode.Offboarded:
    case OrganisationErrorCode.LastAdministrator:
      return 409;
    case OrganisationErrorCode.HoldsStaff:
      return 403;
    default:
      return unmapped(code);
  }
}

/** The problem for an error of partner organisations (§12); `undefined` for any other error. */
export function organisationProblem(error: unknown): Problem | undefined {
  if (!(error instanceof OrganisationError)) return undefined;
  const errors = error.field ? { errors: [{ field: error.field, message: error.message }] } : {};
  return problem(organisationStatus(error.code), error.code, error.message, errors);
}
