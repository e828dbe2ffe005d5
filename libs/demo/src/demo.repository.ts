import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** The marker a demo fill leaves last: an audit event of the tenant, by the system. */
export const DEMO_FILLED_ACTION = 'tenant.demo_filled';

/**
 * What a first `npm start` (or `bootstrap`) records, all as the system: the admin API, the
 * operator, their client and its secret, the Administrator's console invitation.
 */
const BOOTSTRAP_ACTIONS = ['api.created', 'user.created', 'client.created', 'client.secret.created', 'user.staff_invited'];

export interface DatabaseContents {
  tenants: Array<{ id: string; slug: string }>;
  /** The tenant named by slug was filled by the demo before. */
  demoFilled: boolean;
  /** Audit events that no bootstrap writes (people's work, public requests, the worker's sweeps). */
  otherEvents: number;
}

/** The look-ups that tell an empty, a freshly bootstrapped and a demo database from any other. */
@Injectable()
export class DemoRepository {
  async contents(em: EntityManager, slug: string): Promise<DatabaseContents> {
    const tenants: Array<{ id: string; slug: string }> = await em.query(`SELECT id, slug FROM tenants ORDER BY created_at LIMIT 10`);
    const tenant = tenants.find((t) => t.slug === slug);
    if (!tenant) return { tenants, demoFilled: false, otherEvents: 0 };
    // A bootstrap makes one admin API, one operator and one client (secrets and invitations may be renewed).
    const [{ filled, other }] = await em.query(
      `SELECT count(*) FILTER (WHERE action = $2)::int AS filled,
              (count(*) FILTER (WHERE NOT (actor_type = 'system' AND action = ANY($3)))
               + greatest(count(*) FILTER (WHERE action = 'api.created') - 1, 0)
               + greatest(count(*) FILTER (WHERE action = 'user.created') - 1, 0)
               + greatest(count(*) FILTER (WHERE action = 'client.created') - 1, 0))::int AS other
         FROM audit_events WHERE tenant_id = $1`,
      [tenant.id, DEMO_FILLED_ACTION, BOOTSTRAP_ACTIONS],
    );
    return { tenants, demoFilled: filled > 0, otherEvents: other };
  }
}
