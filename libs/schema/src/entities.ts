import { Tenant } from '@gatehouse/tenants';
import { User } from '@gatehouse/accounts';
import { Api, ApiScope } from '@gatehouse/apis';
import { ApiClient, ClientScopeGrant, ClientSecret } from '@gatehouse/clients';
import { ClientAuthThrottle, SigningKey } from '@gatehouse/tokens';
import { AuditEvent } from '@gatehouse/audit';

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
  AuditEvent,
];
