import { Tenant } from '@gatehouse/tenants';
import { AccountLink, LoginNameLock, LoginSourceThrottle, Passkey, RecoveryCode, TotpFactor, User } from '@gatehouse/accounts';
import { DocSection, DocSectionGrant } from '@gatehouse/docs';
import { Invitation } from '@gatehouse/invitations';
import { Email } from '@gatehouse/mail';
import { Api, ApiScope } from '@gatehouse/apis';
import { ApiClient, ClientScopeGrant, ClientSecret } from '@gatehouse/clients';
import { ClientAuthThrottle, SigningKey } from '@gatehouse/tokens';
import { AuditEvent } from '@gatehouse/audit';
import { Session } from '@gatehouse/sessions';

/** Every entity of every context: the complete schema that migrations are generated from. */
export const ENTITIES = [
  Tenant,
  User,
  Api,
  ApiScope,
  ApiClient,
  ClientSecret,
  ClientScopeGrant,
  SigningKey,
  ClientAuthThrottle,
  LoginSourceThrottle,
  AuditEvent,
  Session,
  AccountLink,
  DocSection,
  DocSectionGrant,
  Invitation,
  Email,
  LoginNameLock,
  TotpFactor,
  RecoveryCode,
  Passkey,
];
