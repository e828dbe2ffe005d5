export enum OrganisationErrorCode {
  NotFound = 'organisation_not_found',
  /** An `organisationId` given with a user, client or request names no organisation of the tenant. */
  Unknown = 'organisation_unknown',
  /** Another organisation of the tenant has this name (any case). */
  NameTaken = 'organisation_name_taken',
  /** Empty after trimming, or longer than 200 characters. */
  InvalidName = 'organisation_name_invalid',
  /** Nothing joins an offboarded organisation until it is restored. */
  Offboarded = 'organisation_offboarded',
  /** It holds a person with a role (or a client of one): only an Administrator offboards it. */
  HoldsStaff = 'organisation_holds_staff',
  /** Offboarding it would leave the tenant without an active Administrator. */
  LastAdministrator = 'organisation_last_administrator',
}

export class OrganisationError extends Error {
  constructor(
    readonly code: OrganisationErrorCode,
    message: string,
    /** The request field the error is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'OrganisationError';
  }
}
