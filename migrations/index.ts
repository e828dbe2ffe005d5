import { Initial1795384889995 } from './1795384889995-Initial.js';
import { LoginSourceThrottles1795399223055 } from './1795399223055-LoginSourceThrottles.js';
import { EmailRetryUntil1795434731162 } from './1795434731162-EmailRetryUntil.js';
import { WebLoginNameLocksAndFlash1795434770330 } from './1795434770330-WebLoginNameLocksAndFlash.js';
import { AccessRequestsAndHandovers1795434909890 } from './1795434909890-AccessRequestsAndHandovers.js';
import { RequestScopesOfAdminApi1795434909891 } from './1795434909891-RequestScopesOfAdminApi.js';
import { CertificatesAssertionsAndSourceThrottles1795435045454 } from './1795435045454-CertificatesAssertionsAndSourceThrottles.js';
import { InvitationLinkHistory1795435068561 } from './1795435068561-InvitationLinkHistory.js';
import { StaffSecondFactors1795435375230 } from './1795435375230-StaffSecondFactors.js';
import { ConsoleSessionsAndWorkQueues1795435926596 } from './1795435926596-ConsoleSessionsAndWorkQueues.js';
import { StaffPasskeys1795439309639 } from './1795439309639-StaffPasskeys.js';
import { StaffListIndex1795439854315 } from './1795439854315-StaffListIndex.js';
import { AuditSourceAddress1795447054096 } from './1795447054096-AuditSourceAddress.js';
import { UserSearchAndLastSignIn1795447099626 } from './1795447099626-UserSearchAndLastSignIn.js';
import { KeysetPageIndexes1795449144630 } from './1795449144630-KeysetPageIndexes.js';
import { KeysetListIndexes1795450592018 } from './1795450592018-KeysetListIndexes.js';
import { SpentAssertionsWithoutForeignKeys1795460000000 } from './1795460000000-SpentAssertionsWithoutForeignKeys.js';
import { LeanerAuditWrites1795460000001 } from './1795460000001-LeanerAuditWrites.js';
import { AwaitingClientsByKeysetOnly1795470000000 } from './1795470000000-AwaitingClientsByKeysetOnly.js';
import { TimeOrderedInvitationIds1795490000000 } from './1795490000000-TimeOrderedInvitationIds.js';
import { InvitationExpiryByPosition1795480000000 } from './1795480000000-InvitationExpiryByPosition.js';
import { AuditEventsWithoutTenantKey1795500000000 } from './1795500000000-AuditEventsWithoutTenantKey.js';
import { RevokedSigningKeys1795537000001 } from './1795537000001-RevokedSigningKeys.js';
import { ClientCreators1795842284709 } from './1795842284709-ClientCreators.js';
import { WebhooksAndAuditStreaming1795842668452 } from './1795842668452-WebhooksAndAuditStreaming.js';
import { SecondFactorLockout1795843632703 } from './1795843632703-SecondFactorLockout.js';
import { AuditNamesAtWriteTime1795843770259 } from './1795843770259-AuditNamesAtWriteTime.js';
import { FederatedCredentials1795842406767 } from './1795842406767-FederatedCredentials.js';
import { EntraTokenTypeAndScopeRequests1795845107312 } from './1795845107312-EntraTokenTypeAndScopeRequests.js';
import { FormsActOnce1795855880872 } from './1795855880872-FormsActOnce.js';
import { PasswordResetAndExpiredHandovers1795845292771 } from './1795845292771-PasswordResetAndExpiredHandovers.js';
import { CredentialLastUse1795850000000 } from './1795850000000-CredentialLastUse.js';
import { CredentialPolicyAndClientLimits1795856035948 } from './1795856035948-CredentialPolicyAndClientLimits.js';
import { PartnerOrganisations1795856178129 } from './1795856178129-PartnerOrganisations.js';
import { DisabledCredentials1795860000000 } from './1795860000000-DisabledCredentials.js';
import { SortedListIndexes1795870000000 } from './1795870000000-SortedListIndexes.js';

/** Every migration, in order. Listed explicitly: a glob would load some files twice. */
export const MIGRATIONS = [
  Initial1795384889995,
  LoginSourceThrottles1795399223055,
  EmailRetryUntil1795434731162,
  WebLoginNameLocksAndFlash1795434770330,
  AccessRequestsAndHandovers1795434909890,
  RequestScopesOfAdminApi1795434909891,
  CertificatesAssertionsAndSourceThrottles1795435045454,
  InvitationLinkHistory1795435068561,
  StaffSecondFactors1795435375230,
  ConsoleSessionsAndWorkQueues1795435926596,
  StaffPasskeys1795439309639,
  StaffListIndex1795439854315,
  AuditSourceAddress1795447054096,
  UserSearchAndLastSignIn1795447099626,
  KeysetPageIndexes1795449144630,
  KeysetListIndexes1795450592018,
  SpentAssertionsWithoutForeignKeys1795460000000,
  LeanerAuditWrites1795460000001,
  AwaitingClientsByKeysetOnly1795470000000,
  InvitationExpiryByPosition1795480000000,
  TimeOrderedInvitationIds1795490000000,
  AuditEventsWithoutTenantKey1795500000000,
  RevokedSigningKeys1795537000001,
  ClientCreators1795842284709,
  FederatedCredentials1795842406767,
  WebhooksAndAuditStreaming1795842668452,
  SecondFactorLockout1795843632703,
  AuditNamesAtWriteTime1795843770259,
  EntraTokenTypeAndScopeRequests1795845107312,
  PasswordResetAndExpiredHandovers1795845292771,
  CredentialLastUse1795850000000,
  FormsActOnce1795855880872,
  CredentialPolicyAndClientLimits1795856035948,
  PartnerOrganisations1795856178129,
  DisabledCredentials1795860000000,
  SortedListIndexes1795870000000,
];
