import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

/** The slug of the tenant whose Web UI the identity app serves, when several exist. */
export const UI_TENANT_SLUG = 'default';

/**
 * Which tenant the Web UI belongs to. The UI lives at the root (`/login`, `/docs`,
 * `/invitations/{token}`), so one identity app serves one tenant's UI: the tenant with slug
 * `default`, or else the only tenant when exactly one exists; otherwise none (the UI says it is
 * not set up). This is the one place to change when the choice becomes configurable.
 */
@Injectable()
export class UiTenantResolver {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async resolve(): Promise<Tenant | null> {
    const repository = this.dataSource.getRepository(Tenant);
    const named = await repository.findOne({ where: { slug: UI_TENANT_SLUG } });
    if (named) return named;
    const some = await repository.find({ take: 2, order: { createdAt: 'ASC' } });
    return some.length === 1 ? some[0]! : null;
  }
}
