import { AccountError, MfaError, MfaErrorCode } from '@gatehouse/accounts';
import { ApiError } from '@gatehouse/apis';
import { AuditError } from '@gatehouse/audit';
import { ClientError, CredentialPolicyError, FederatedCredentialError } from '@gatehouse/clients';
import { InvalidCursorError } from '@gatehouse/database';
import { DocError } from '@gatehouse/docs';
import { WebhookError } from '@gatehouse/events';
import { HandoverError } from '@gatehouse/handovers';
import { InvitationError } from '@gatehouse/invitations';
import { MailError } from '@gatehouse/mail';
import { OrganisationError } from '@gatehouse/organisations';
import { StaffError, StaffErrorCode } from '@gatehouse/provisioning';
import { AccessRequestError } from '@gatehouse/requests';
import { TenantError } from '@gatehouse/tenants';
import { accessRequestStatus, handoverStatus } from '../../problem/access-problems.js';
import { auditStatus } from '../../problem/audit-problems.js';
import { webhookStatus } from '../../problem/event-problems.js';
import { organisationStatus } from '../../problem/organisation-problems.js';
import { credentialPolicyStatus } from '../../problem/policy-problems.js';
import {
  accountStatus,
  apiStatus,
  clientStatus,
  docStatus,
  federatedStatus,
  invitationStatus,
  mailStatus,
  tenantStatus,
} from '../../problem/problem.filter.js';

function unmapped(code: never): never {
  throw new Error(`unmapped console error code ${String(code)}`);
}

export function mfaStatus(code: MfaErrorCode): number {
  switch (code) {
    case MfaErrorCode.UserNotFound:
      return 404;
    case MfaErrorCode.AlreadyEnrolled:
    case MfaErrorCode.NoPendingEnrolment:
    case MfaErrorCode.NotEnrolled:
      return 409;
    case MfaErrorCode.NotPermitted:
      return 403;
    default:
      return unmapped(code);
  }
}

export function staffStatus(code: StaffErrorCode): number {
  switch (code) {
    case StaffErrorCode.TenantNotFound:
    case StaffErrorCode.UserNotFound:
      return 404;
    case StaffErrorCode.UsernameOfAnother:
    case StaffErrorCode.UserDisabled:
    case StaffErrorCode.NotInvited:
      return 409;
    default:
      return unmapped(code);
  }
}

/**
 * The status of a domain error the presenter did not turn into a message beside a field: the
 * same as the REST API answers for it, so both adapters refuse alike. `null`: not a domain error.
 */
export function domainErrorStatus(error: unknown): number | null {
  if (error instanceof AccountError) return accountStatus(error.code);
  if (error instanceof MfaError) return mfaStatus(error.code);
  if (error instanceof StaffError) return staffStatus(error.code);
  if (error instanceof ApiError) return apiStatus(error.code);
  if (error instanceof ClientError) return clientStatus(error.code);
  if (error instanceof FederatedCredentialError) return federatedStatus(error.code);
  if (error instanceof DocError) return docStatus(error.code);
  if (error instanceof InvitationError) return invitationStatus(error.code);
  if (error instanceof MailError) return mailStatus(error.code);
  if (error instanceof TenantError) return tenantStatus(error.code);
  if (error instanceof AccessRequestError) return accessRequestStatus(error.code);
  if (error instanceof HandoverError) return handoverStatus(error.code);
  if (error instanceof AuditError) return auditStatus(error.code);
  if (error instanceof WebhookError) return webhookStatus(error.code);
  if (error instanceof OrganisationError) return organisationStatus(error.code);
  if (error instanceof CredentialPolicyError) return credentialPolicyStatus(error.code);
  if (error instanceof InvalidCursorError) return 400;
  return null;
}
