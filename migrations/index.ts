import { Initial1795384889995 } from './1795384889995-Initial.js';
import { LoginSourceThrottles1795399223055 } from './1795399223055-LoginSourceThrottles.js';
import { EmailRetryUntil1795434731162 } from './1795434731162-EmailRetryUntil.js';
import { AccessRequestsAndHandovers1795434909890 } from './1795434909890-AccessRequestsAndHandovers.js';
import { RequestScopesOfAdminApi1795434909891 } from './1795434909891-RequestScopesOfAdminApi.js';
import { CertificatesAssertionsAndSourceThrottles1795435045454 } from './1795435045454-CertificatesAssertionsAndSourceThrottles.js';
import { InvitationLinkHistory1795435068561 } from './1795435068561-InvitationLinkHistory.js';

/** Every migration, in order. Listed explicitly: a glob would load some files twice. */
export const MIGRATIONS = [
  Initial1795384889995,
  LoginSourceThrottles1795399223055,
  EmailRetryUntil1795434731162,
  AccessRequestsAndHandovers1795434909890,
  RequestScopesOfAdminApi1795434909891,
  CertificatesAssertionsAndSourceThrottles1795435045454,
  InvitationLinkHistory1795435068561,
];
