import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiClient, ClientSecret } from '@gatehouse/clients';
import { User } from '@gatehouse/accounts';
import { Tenant } from '@gatehouse/tenants';

/** The lookups bootstrapping needs to be safe to rerun. */
@Injectable()
export class ProvisioningRepository {
  /** Serialises bootstraps of one tenant slug across processes until the transaction ends. */
  async lockSlug(em: EntityManager, slug: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse.bootstrap:' || $1))`, [slug]);
  }

  findTenantBySlug(em: EntityManager, slug: string): Promise<Tenant | null> {
    return em.findOne(Tenant, { where: { slug } });
  }

  async hasAnyTenant(em: EntityManager): Promise<boolean> {
    return (await em.count(Tenant)) > 0;
  }

  findUser(em: EntityManager, tenantId: string, username: string): Promise<User | null> {
    return em.findOne(User, { where: { tenantId, usernameNormalized: username.toLowerCase() } });
  }

  /** The tenant's staff (users holding a role), by name; staff are few, the list is capped anyway. */
  findStaff(em: EntityManager, tenantId: string, limit: number): Promise<User[]> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId AND cardinality(u.roles) > 0', { tenantId })
      .orderBy('lower(u.display_name)')
      .addOrderBy('u.id')
      .take(limit)
      .getMany();
  }

  findOwnedClient(em: EntityManager, tenantId: string, ownerUserId: string, displayName: string): Promise<ApiClient | null> {
    return em.findOne(ApiClient, { where: { tenantId, ownerUserId, displayName }, order: { createdAt: 'ASC' } });
  }

  async countUsableSecrets(em: EntityManager, apiClientId: string): Promise<number> {
    return em
      .createQueryBuilder(ClientSecret, 's')
      .where('s.api_client_id = :apiClientId AND s.revoked_at IS NULL AND s.expires_at > now()', { apiClientId })
      .getCount();
  }
}
