export enum HandoverErrorCode {
  /** No handover with that id, or none behind that link. */
  NotFound = 'handover_not_found',
  InvalidExpiry = 'handover_invalid_expiry',
  /** No recipient given and the client has no contact address. */
  NoRecipient = 'handover_no_recipient',
  /** The recipient is not exactly one plain address. */
  InvalidRecipient = 'handover_invalid_recipient',
  ClientDisabled = 'handover_client_disabled',
  /** Revoke of a handover that expired or was revoked already. */
  NotRevocable = 'handover_not_revocable',
  /** Resend of a handover that has not expired (pending, revealed or revoked). */
  NotResendable = 'handover_not_resendable',
  /** The link was used: its secret was revealed. */
  AlreadyRevealed = 'handover_already_revealed',
  Expired = 'handover_expired',
  Revoked = 'handover_revoked',
}

export class HandoverError extends Error {
  constructor(
    readonly code: HandoverErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HandoverError';
  }
}
