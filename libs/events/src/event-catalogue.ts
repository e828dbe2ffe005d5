/**
 * Every event a webhook can subscribe to: the audit log's action names (§13), and the events
 * written for subscribers only. A subscription's filter names events exactly or by `prefix.*`
 * (`*` alone: everything). A new audit action belongs here too: `event-catalogue.spec.ts` finds
 * the action names in the code and fails on one this list does not know.
 */
export const KNOWN_EVENTS = [
  'access_request.approved',
  'access_request.confirmed',
  'access_request.created',
  'access_request.delivered',
  'access_request.expired',
  'access_request.fulfilled',
  'access_request.handover_sent',
  'access_request.refused',
  'access_request.rejected',
  'api.created',
  'api.scope.created',
  'api.updated',
  'client.auth.failure_burst',
  'client.certificate.added',
  'client.certificate.expiry_warned',
  'client.certificate.removed',
  'client.created',
  /** A secret or certificate expires within 14 days (written beside the contact's warning mail). */
  /**
   * A stale credential disabled by the worker (the credential policy's `disableStaleCredentials`;
   * details `{kind, keyId, reason: 'stale', lastUsedAt, unusedDays}`): its token requests fail until
   * it is enabled again.
   */
  'client.credential.disabled',
  /** A disabled credential enabled again (details `{kind, keyId, disabledAt}`); its stale period counts afresh. */
  'client.credential.enabled',
  'client.credential.expiring',
  /**
   * A credential unused for the tenant's `staleCredentialDays` ({@link STALE_CREDENTIAL_EVENT}).
   * Stale-credential detection writes it as an audit event (targetType `client`, targetId the
   * client id, details `{kind, keyId, lastUsedAt}`) in its own transaction; the audit trigger
   * then queues it for every subscription whose filter takes it. Nothing else is needed here.
   */
  'client.credential.stale',
  'client.disabled',
  'client.enabled',
  'client.federated_credential.added',
  'client.federated_credential.removed',
  'client.federated_credential.updated',
  'client.handover.created',
  'client.handover.expired',
  'client.handover.resent',
  'client.handover.revealed',
  'client.handover.revoked',
  'client.organisation.set',
  /** IT changed where a client's token requests may come from or its tokens per hour (details: before, after). */
  'client.limits.updated',
  'client.scopes.set',
  /** Least privilege: the scopes no token carried for 90 days, removed in one step (details as client.scopes.set). */
  'client.scopes.unused_removed',
  'client.secret.created',
  'client.secret.expiry_warned',
  'client.secret.leak_revoked',
  'client.secret.revoked',
  /** A token request beyond the client's tokens per hour (at most one per client, address and minute per replica). */
  'client.token.quota_exceeded',
  /** A token request from outside the client's allowed source ranges (at most one per client, address and minute per replica). */
  'client.token.source_refused',
  'doc_section.access_revoked',
  'doc_section.created',
  'doc_section.deleted',
  'doc_section.updated',
  'email.retried',
  'invitation.accepted',
  'invitation.created',
  'invitation.expired',
  'invitation.resent',
  'invitation.revoked',
  'organisation.created',
  'organisation.offboarded',
  'organisation.restored',
  'organisation.updated',
  /** The tenant's credential policy was replaced (details: before, after). */
  'tenant.credential_policy.updated',
  /** `npm run demo` filled the tenant with its sample data (the marker a second run finds). */
  'tenant.demo_filled',
  'tenant.settings.updated',
  /** An emergency rollover of the tenant's signing key (details: the new and previous kid, whether it was revoked). */
  'tenant.signing_key.rolled_over',
  'user.created',
  'user.credentials.reset',
  'user.disabled',
  'user.enabled',
  'user.login.failed',
  'user.login.succeeded',
  'user.mfa.enrolled',
  'user.mfa.failed',
  'user.mfa.passkey_added',
  'user.mfa.passkey_removed',
  'user.mfa.recovery_codes_regenerated',
  'user.mfa.reset',
  'user.mfa.succeeded',
  'user.password.change_failed',
  'user.password.changed',
  'user.password.reset',
  'user.password.reset_requested',
  'user.password.reset_throttled',
  'user.password.set_by_link',
  'user.staff_invitation_resent',
  'user.staff_invitation_revoked',
  'user.staff_invited',
  'user.unlocked',
  'user.updated',
  'webhook.created',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.failing',
  'webhook.redelivered',
  'webhook.secret_rotated',
  'webhook.updated',
] as const;

/** The audit action of a stale credential (§12): the hook for stale-credential detection. */
export const STALE_CREDENTIAL_EVENT = 'client.credential.stale';

/**
 * The one event that is never fanned out by filter: a test event goes to the subscription it
 * tests only (the audit trigger of migration WebhooksAndAuditStreaming leaves it out).
 */
export const TEST_EVENT = 'webhook.tested';

/** Whether one filter entry (`user.created`, `client.secret.*`, `*`) takes `event`. */
export function filterTakes(entry: string, event: string): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('.*')) return event.startsWith(entry.slice(0, -1));
  return entry === event;
}

/** The entries of a filter that name no known event (empty: the filter is good). */
export function unknownFilterEntries(filter: readonly string[]): string[] {
  return filter.filter((entry) => !KNOWN_EVENTS.some((event) => filterTakes(entry, event)));
}
