import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OUTSIDE_POLICY_SQL } from '@gatehouse/clients';

/** What is counted for each queue: a constant, never input. Each is served by an index. */
export const QUEUE_COUNTS = {
  requestsToDecide: `SELECT count(*) FROM access_requests WHERE tenant_id = $1 AND status = 'submitted'`,
  clientsAwaitingScopes: `SELECT count(*) FROM api_clients WHERE tenant_id = $1 AND state = 'awaiting_scopes'`,
  secretsExpiring: `SELECT count(*) FROM client_secrets s JOIN api_clients c ON c.id = s.api_client_id
                     WHERE s.tenant_id = $1 AND s.revoked_at IS NULL AND c.state <> 'disabled'
                       AND s.expires_at < now() + interval '30 days'`,
  abandonedMail: `SELECT count(*) FROM emails WHERE tenant_id = $1 AND status = 'abandoned'`,
  invitationsExpiring: `SELECT count(*) FROM invitations WHERE tenant_id = $1 AND status = 'pending'
                         AND expires_at > now() AND expires_at < now() + interval '48 hours'`,
  lockedAccounts: `SELECT count(*) FROM users WHERE tenant_id = $1 AND (locked_until > now() OR second_factor_locked_until > now())`,
  /** A client's last handover expired unrevealed (no newer one was sent) and the client is not disabled. */
  handoversExpired: `SELECT count(*) FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id
                      WHERE h.tenant_id = $1 AND c.state <> 'disabled'
                        AND (h.status = 'expired' OR (h.status = 'pending' AND h.expires_at <= now()))
                        AND NOT EXISTS (SELECT 1 FROM credential_handovers n
                                         WHERE n.api_client_id = h.api_client_id AND n.created_at > h.created_at)`,
  /**
   * Live credentials outside the tenant's credential policy (flagged, never broken): OUTSIDE_POLICY_SQL of @gatehouse/clients.
   * NULL — no card — while the tenant has no policy: there is nothing to be outside of.
   */
  credentialsOutsidePolicy: `SELECT CASE WHEN EXISTS (SELECT 1 FROM credential_policies WHERE tenant_id = $1)
                                         THEN (SELECT count(*) FROM (${OUTSIDE_POLICY_SQL}) flagged) END`,
} as const;

export type QueueName = keyof typeof QUEUE_COUNTS;

/** A recent audit event with the names of who acted and of what they acted on, as they were then. */
export interface RecentEvent {
  occurredAt: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
}

/** Counts across contexts for the overview, in one round trip. */
@Injectable()
export class WorkQueueRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async count(tenantId: string, queues: readonly QueueName[]): Promise<Partial<Record<QueueName, number>>> {
    if (!queues.length) return {};
    const columns = queues.map((name) => `(${QUEUE_COUNTS[name]})::int AS "${name}"`).join(', ');
    const rows: Array<Record<QueueName, number | null>> = await this.dataSource.query(`SELECT ${columns}`, [tenantId]);
    const counts = Object.entries(rows[0] ?? {}).filter(([, count]) => count !== null);
    return Object.fromEntries(counts) as Partial<Record<QueueName, number>>;
  }

  /** The tenant's newest audit events (by the position index), with the names each event keeps. */
  recentEvents(tenantId: string, limit: number): Promise<RecentEvent[]> {
    return this.dataSource.query(
      `SELECT occurred_at AS "occurredAt", action, actor_type AS "actorType", actor_id AS "actorId",
              actor_name AS "actorName", target_type AS "targetType", target_id AS "targetId", target_name AS "targetName"
         FROM audit_events WHERE tenant_id = $1
        ORDER BY date_trunc('milliseconds', occurred_at AT TIME ZONE 'UTC') DESC, id DESC LIMIT $2`,
      [tenantId, limit],
    );
  }
}
