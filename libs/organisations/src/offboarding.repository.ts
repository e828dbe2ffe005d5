import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OffboardingRecord } from './organisation.entity.js';
import type { OffboardingPreview } from './organisation.view.js';

type ClientChange = OffboardingRecord['clients'][number];

/**
 * (Each change is a data-modifying CTE read by a SELECT: the driver then answers the rows alone.)
 *
 * The set-based statements of an offboarding and its restore, each in the caller's transaction
 * (one statement per kind of row, never one per row). Restore touches only the rows named in the
 * offboarding's record, and only while they are still as the offboarding left them.
 */
@Injectable()
export class OffboardingRepository {
  /** Disables, revokes and ends; returns what changed. */
  async offboard(em: EntityManager, tenantId: string, organisationId: string): Promise<OffboardingRecord> {
    const args = [tenantId, organisationId];
    const users: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE users SET status = 'disabled', updated_at = now()
                         WHERE tenant_id = $1 AND organisation_id = $2 AND status = 'active' RETURNING id)
       SELECT id FROM changed`,
      args,
    );
    const clients: ClientChange[] = await em.query(
      `WITH before AS (SELECT id, client_id, state FROM api_clients
                        WHERE tenant_id = $1 AND organisation_id = $2 AND state <> 'disabled' FOR UPDATE),
            changed AS (UPDATE api_clients a SET state = 'disabled', updated_at = now() FROM before
                         WHERE a.id = before.id RETURNING before.id, before.client_id AS "clientId", before.state)
       SELECT * FROM changed`,
      args,
    );
    const invitations: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE invitations i SET status = 'revoked', revoked_at = now(), updated_at = now() FROM users u
                         WHERE u.id = i.user_id AND u.tenant_id = $1 AND u.organisation_id = $2 AND i.tenant_id = $1
                           AND i.status = 'pending' AND i.expires_at > now() RETURNING i.id)
       SELECT id FROM changed`,
      args,
    );
    const handovers: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE credential_handovers h SET status = 'revoked', revoked_at = now(), updated_at = now() FROM api_clients c
                         WHERE c.id = h.api_client_id AND c.tenant_id = $1 AND c.organisation_id = $2 AND h.tenant_id = $1
                           AND h.status = 'pending' AND h.expires_at > now() RETURNING h.id)
       SELECT id FROM changed`,
      args,
    );
    const sessions: Array<{ n: number }> = await em.query(
      `WITH ended AS (UPDATE sessions s SET revoked_at = now() FROM users u
                       WHERE u.id = s.user_id AND u.tenant_id = $1 AND u.organisation_id = $2 AND s.tenant_id = $1
                         AND s.revoked_at IS NULL RETURNING 1)
       SELECT count(*)::int AS n FROM ended`,
      args,
    );
    return {
      userIds: users.map((row) => row.id),
      clients: clients.map((row) => ({ id: row.id, clientId: row.clientId, state: row.state })),
      invitationIds: invitations.map((row) => row.id),
      handoverIds: handovers.map((row) => row.id),
      sessionsEnded: sessions[0]?.n ?? 0,
    };
  }

  /** Reverses the record: what is still as the offboarding left it gets its state back. Returns what was restored. */
  async restore(em: EntityManager, tenantId: string, record: OffboardingRecord): Promise<OffboardingRecord> {
    const users: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE users SET status = 'active', updated_at = now()
                         WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'disabled' RETURNING id)
       SELECT id FROM changed`,
      [tenantId, record.userIds],
    );
    const clients: ClientChange[] = await em.query(
      `WITH changed AS (UPDATE api_clients a SET state = r.state, updated_at = now()
                          FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, state text)
                         WHERE a.id = r.id AND a.tenant_id = $1 AND a.state = 'disabled' AND r.state IN ('active', 'awaiting_scopes')
                         RETURNING a.id, a.client_id AS "clientId", a.state)
       SELECT * FROM changed`,
      [tenantId, JSON.stringify(record.clients)],
    );
    const invitations: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE invitations SET status = 'pending', revoked_at = NULL, updated_at = now()
                         WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'revoked' RETURNING id)
       SELECT id FROM changed`,
      [tenantId, record.invitationIds],
    );
    const handovers: Array<{ id: string }> = await em.query(
      `WITH changed AS (UPDATE credential_handovers SET status = 'pending', revoked_at = NULL, updated_at = now()
                         WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'revoked' RETURNING id)
       SELECT id FROM changed`,
      [tenantId, record.handoverIds],
    );
    return {
      userIds: users.map((row) => row.id),
      clients: clients.map((row) => ({ id: row.id, clientId: row.clientId, state: row.state })),
      invitationIds: invitations.map((row) => row.id),
      handoverIds: handovers.map((row) => row.id),
      sessionsEnded: 0,
    };
  }

  /** What an offboarding would change now. */
  async preview(em: EntityManager, tenantId: string, organisationId: string): Promise<OffboardingPreview> {
    const rows: OffboardingPreview[] = await em.query(
      `SELECT (SELECT count(*) FROM users WHERE tenant_id = $1 AND organisation_id = $2 AND status = 'active')::int AS "usersToDisable",
              (SELECT count(*) FROM api_clients WHERE tenant_id = $1 AND organisation_id = $2 AND state <> 'disabled')::int AS "clientsToDisable",
              (SELECT count(*) FROM invitations i JOIN users u ON u.id = i.user_id
                WHERE u.tenant_id = $1 AND u.organisation_id = $2 AND i.status = 'pending' AND i.expires_at > now())::int AS "invitationsToRevoke",
              (SELECT count(*) FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id
                WHERE c.tenant_id = $1 AND c.organisation_id = $2 AND h.status = 'pending' AND h.expires_at > now())::int AS "handoversToRevoke",
              (SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE u.tenant_id = $1 AND u.organisation_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now())::int AS "sessionsToEnd"`,
      [tenantId, organisationId],
    );
    return rows[0]!;
  }

  /** People of the organisation who hold a role, and clients of theirs in it: only an Administrator offboards those. */
  async staffCount(em: EntityManager, tenantId: string, organisationId: string): Promise<number> {
    const rows: Array<{ n: number }> = await em.query(
      `SELECT ((SELECT count(*) FROM users WHERE tenant_id = $1 AND organisation_id = $2 AND cardinality(roles) > 0)
             + (SELECT count(*) FROM api_clients c JOIN users u ON u.id = c.owner_user_id
                 WHERE c.tenant_id = $1 AND c.organisation_id = $2 AND cardinality(u.roles) > 0))::int AS n`,
      [tenantId, organisationId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Whether disabling the organisation's people would leave the tenant without an active Administrator. */
  async wouldLeaveNoAdministrator(em: EntityManager, tenantId: string, organisationId: string): Promise<boolean> {
    const rows: Array<{ inside: number; outside: number }> = await em.query(
      `SELECT count(*) FILTER (WHERE organisation_id = $2)::int AS inside,
              count(*) FILTER (WHERE organisation_id IS DISTINCT FROM $2)::int AS outside
         FROM users WHERE tenant_id = $1 AND status = 'active' AND 'Administrator' = ANY(roles)`,
      [tenantId, organisationId],
    );
    return (rows[0]?.inside ?? 0) > 0 && (rows[0]?.outside ?? 0) === 0;
  }

  /** Names for the contact persons' mail: the first few people and clients the record names. */
  async names(em: EntityManager, tenantId: string, record: OffboardingRecord, limit = 20): Promise<{ people: string[]; clients: string[] }> {
    const people: Array<{ name: string }> = await em.query(
      `SELECT display_name AS name FROM users WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY lower(display_name) LIMIT $3`,
      [tenantId, record.userIds, limit],
    );
    const clients: Array<{ name: string }> = await em.query(
      `SELECT display_name AS name FROM api_clients WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY lower(display_name) LIMIT $3`,
      [tenantId, record.clients.map((client) => client.id), limit],
    );
    return { people: people.map((row) => row.name), clients: clients.map((row) => row.name) };
  }

  /** Every active contact person of the tenant. */
  async contactPersons(em: EntityManager, tenantId: string): Promise<string[]> {
    const rows: Array<{ email: string }> = await em.query(
      `SELECT email FROM users WHERE tenant_id = $1 AND status = 'active' AND 'ContactPerson' = ANY(roles) ORDER BY created_at`,
      [tenantId],
    );
    return rows.map((row) => row.email);
  }

  /** A person's display name (the mail names who acted). */
  async personName(em: EntityManager, tenantId: string, userId: string | null): Promise<string | null> {
    if (!userId) return null;
    const rows: Array<{ name: string }> = await em.query(`SELECT display_name AS name FROM users WHERE tenant_id = $1 AND id = $2`, [tenantId, userId]);
    return rows[0]?.name ?? null;
  }
}
