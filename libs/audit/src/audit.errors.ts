/** Why an audit query was refused. Apps map each code to HTTP in one place. */
export enum AuditErrorCode {
  NotFound = 'audit_event_not_found',
  FilterTooBroad = 'audit_filter_too_broad',
}

export class AuditError extends Error {
  constructor(
    readonly code: AuditErrorCode,
    message: string,
    /** The filter the message is about (`actor`, `target`), for a form to show it beside. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AuditError';
  }
}
