import { Tenant } from '@gatehouse/tenants';
import {
  AccountLink,
  LoginNameLock,
  LoginSourceThrottle,
  Passkey,
  PasswordResetRequest,
  PasswordResetThrottle,
  RecoveryCode,
  TotpFactor,
  User,
} from '@gatehouse/accounts';
import { DocSection, DocSectionGrant } from '@gatehouse/docs';
import { Invitation, InvitationSweepPosition, SupersededInvitationLink } from '@gatehouse/invitations';
import { Email } from '@gatehouse/mail';
import { Api, ApiScope } from '@gatehouse/apis';
import { ApiClient, ClientCertificate, ClientScopeGrant, ClientSecret, CredentialPolicyRow, FederatedCredential } from '@gatehouse/clients';
import { ClientAuthThrottle, SigningKey, SourceThrottle, UsedClientAssertion } from '@gatehouse/tokens';
import { AuditEvent } from '@gatehouse/audit';
import { Session } from '@gatehouse/sessions';
import { AccessRequest, AccessRequestThrottle } from '@gatehouse/requests';
import { CredentialHandover } from '@gatehouse/handovers';
import { Organisation } from '@gatehouse/organisations';
import { AuditStreamCursor, WebhookDelivery, WebhookSubscription } from '@gatehouse/events';

/** Every entity of every context: the complete schema that migrations are generated from. */
export const ENTITIES = [
  Tenant,
  Organisation,
  User,
  Api,
  ApiScope,
  ApiClient,
  ClientSecret,
  ClientCertificate,
  FederatedCredential,
  CredentialPolicyRow,
  ClientScopeGrant,
  SigningKey,
  ClientAuthThrottle,
  SourceThrottle,
  UsedClientAssertion,
  LoginSourceThrottle,
  AuditEvent,
  Session,
  AccountLink,
  DocSection,
  DocSectionGrant,
  Invitation,
  SupersededInvitationLink,
  InvitationSweepPosition,
  Email,
  LoginNameLock,
  TotpFactor,
  RecoveryCode,
  Passkey,
  AccessRequest,
  AccessRequestThrottle,
  CredentialHandover,
  WebhookSubscription,
  WebhookDelivery,
  AuditStreamCursor,
  PasswordResetRequest,
  PasswordResetThrottle,
];
