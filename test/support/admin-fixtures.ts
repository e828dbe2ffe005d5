import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { type Role, UserService, type UserView, permissionsOf } from '@gatehouse/accounts';
import { type Api, ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { TenantService } from '@gatehouse/tenants';
import { SigningKeyService, issuerOf } from '@gatehouse/tokens';

export interface TenantFixture {
  tenantId: string;
  slug: string;
  adminApi: Api;
}

export interface OperatorFixture {
  user: UserView;
  clientId: string;
  /** The client's object id: `sub` and `oid` of its tokens. */
  objectId: string;
  token: string;
}

export interface TokenOverrides {
  roles?: string[];
  audience?: string;
  expiresInSeconds?: number;
  issuedSecondsAgo?: number;
}

/** Builds tenants, operators and admin tokens through the real services of a running admin app. */
export class AdminFixtures {
  private readonly dataSource: DataSource;

  constructor(
    private readonly app: INestApplication,
    private readonly config: AppConfig,
  ) {
    this.dataSource = app.get(DataSource);
  }

  /** A tenant with its built-in admin API and an active signing key. */
  async tenant(slug = `t-${randomUUID().slice(0, 8)}`): Promise<TenantFixture> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.app.get(TenantService).create(em, { slug, displayName: slug });
      const adminApi = await this.app.get(ApiService).createBuiltInAdminApi(em, tenant.id);
      await this.app.get(SigningKeyService).ensureActiveKey(em, tenant.id, 'RS256');
      return { tenantId: tenant.id, slug, adminApi };
    });
  }

  /** A user with roles, a client owned by them, and an admin token of that client. */
  async operator(tenant: TenantFixture, roles: Role[], username = `op-${randomUUID().slice(0, 8)}`): Promise<OperatorFixture> {
    const user = await this.app.get(UserService).create(tenant.tenantId, SYSTEM_ACTOR, {
      username,
      email: `${username}@example.com`,
      displayName: username,
      roles,
      password: 'none',
    });
    const client = await this.app
      .get(ClientService)
      .create(tenant.tenantId, SYSTEM_ACTOR, { displayName: `${username} CLI`, ownerUserId: user.id });
    const entity = await this.app.get(ClientService).findByClientId(tenant.tenantId, client.clientId);
    const operator = { user, clientId: client.clientId, objectId: entity!.id, token: '' };
    operator.token = await this.token(tenant, operator, {});
    return operator;
  }

  /** An access token with exactly the claims the token endpoint issues for the admin API. */
  async token(tenant: TenantFixture, operator: Omit<OperatorFixture, 'token'>, overrides: TokenOverrides): Promise<string> {
    const signer = await this.app.get(SigningKeyService).signer(tenant.tenantId);
    const roles = overrides.roles ?? permissionsOf(operator.user.roles);
    const now = Math.floor(Date.now() / 1000) - (overrides.issuedSecondsAgo ?? 0);
    return new SignJWT({
      oid: operator.objectId,
      client_id: operator.clientId,
      azp: operator.clientId,
      azpacr: '1',
      tid: tenant.tenantId,
      roles,
      scope: roles.join(' '),
      idtyp: 'app',
      ver: '2.0',
    })
      .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'JWT' })
      .setIssuer(issuerOf(this.config.publicUrl, tenant.tenantId))
      .setAudience(overrides.audience ?? tenant.adminApi.appId)
      .setSubject(operator.objectId)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + (overrides.expiresInSeconds ?? 3599))
      .setJti(randomUUID())
      .sign(signer.key);
  }
}
