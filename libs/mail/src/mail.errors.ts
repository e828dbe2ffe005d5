export enum MailErrorCode {
  /** Not exactly one well-formed address (CR/LF, several addresses, display names…). */
  InvalidAddress = 'invalid_email_address',
  NotFound = 'email_not_found',
  /** Only a failed or abandoned mail can be retried. */
  NotRetryable = 'email_not_retryable',
}

export class MailError extends Error {
  constructor(
    readonly code: MailErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MailError';
  }
}
