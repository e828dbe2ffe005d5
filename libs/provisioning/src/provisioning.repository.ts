import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiClient, ClientSecret } from '@gatehouse/clients';
import { User } from '@gatehouse/accounts';
import { Tenant } from '@gatehouse/tenants';
import type { TextSort } from '@gatehouse/database';

/** The columns the staff list sorts by, by their names in the URL. */
export const STAFF_SORT_COLUMNS = { name: 'lower(u.display_name)', username: 'u.username_normalized', email: 'lower(u.email)' } as const;
export type StaffSort = keyof typeof STAFF_SORT_COLUMNS;

export interface StaffListOptions {
  search?: string;
  sort?: TextSort;
}

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
  /** Staff by name (or by `sort`), those matching `search` in their name, username or address (any case). */
  findStaff(em: EntityManager, tenantId: string, limit: number, options: StaffListOptions = {}): Promise<User[]> {
    const qb = em.getRepository(User).createQueryBuilder('u').where('u.tenant_id = :tenantId AND cardinality(u.roles) > 0', { tenantId });
    if (options.search) {
      const like = `%${options.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      qb.andWhere('(u.display_name ILIKE :like OR u.username ILIKE :like OR u.email ILIKE :like)', { like });
    }
    const direction = options.sort?.descending ? 'DESC' : 'ASC';
    const column = STAFF_SORT_COLUMNS[(options.sort?.by as StaffSort | undefined) ?? 'name'] ?? STAFF_SORT_COLUMNS.name;
    return qb.orderBy(column, direction).addOrderBy('u.id', direction).take(limit).getMany();
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
