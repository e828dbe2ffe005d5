import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { CredentialHandover } from './credential-handover.entity.js';

/** A handover that expired unrevealed, with what its mail to the responsible person needs. */
export interface ExpiredHandover {
  id: string;
  tenantId: string;
  tenantName: string;
  clientId: string;
  clientName: string;
  recipientEmail: string;
  expiresAt: Date;
  /** The responsible person's address, or (when that person is gone) every active ContactPerson's. */
  notify: string[];
}

/** The person a partner asks about a handover: who is responsible for it, or who sent it. */
export interface HandoverContact {
  name: string;
  email: string;
}

@Injectable()
export class HandoverRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insert(em: EntityManager, handover: Partial<CredentialHandover>): Promise<CredentialHandover> {
    return em.getRepository(CredentialHandover).save(em.getRepository(CredentialHandover).create(handover));
  }

  save(em: EntityManager, handover: CredentialHandover): Promise<CredentialHandover> {
    return em.getRepository(CredentialHandover).save(handover);
  }

  /** With its client; `lock` takes the handover's row FOR UPDATE until the transaction ends. */
  findById(tenantId: string, id: string, em?: EntityManager, lock = false): Promise<CredentialHandover | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    const qb = this.manager(em)
      .getRepository(CredentialHandover)
      .createQueryBuilder('h')
      .innerJoinAndSelect('h.apiClient', 'c')
      .where('h.tenant_id = :tenantId AND h.id = :id', { tenantId, id });
    if (lock) qb.setLock('pessimistic_write', undefined, ['h']);
    return qb.getOne();
  }

  findByTokenHash(tenantId: string, tokenHash: Buffer, em?: EntityManager): Promise<CredentialHandover | null> {
    return this.manager(em)
      .getRepository(CredentialHandover)
      .findOne({ where: { tenantId, tokenHash }, relations: { apiClient: true } });
  }

  /** The first of these people whose account is active (responsible before sender), or `null`. */
  async contact(tenantId: string, userIds: Array<string | null>, em?: EntityManager): Promise<HandoverContact | null> {
    const ids = userIds.filter((id): id is string => id !== null);
    if (!ids.length) return null;
    const rows: HandoverContact[] = await this.manager(em).query(
      `SELECT display_name AS name, email FROM users
        WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'active'
        ORDER BY array_position($2::uuid[], id) LIMIT 1`,
      [tenantId, ids],
    );
    return rows[0] ?? null;
  }

  ofClient(tenantId: string, apiClientId: string): Promise<CredentialHandover[]> {
    return this.dataSource
      .getRepository(CredentialHandover)
      .find({ where: { tenantId, apiClientId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Revokes, in the caller's transaction, every usable pending handover addressed to
   * `recipientEmail` (any case) or made for one of these clients; returns them.
   */
  revokePending(
    em: EntityManager,
    tenantId: string,
    recipientEmail: string,
    apiClientIds: string[],
  ): Promise<Array<{ id: string; apiClientId: string; clientId: string }>> {
    return em.query(
      `WITH r AS (UPDATE credential_handovers SET status = 'revoked', revoked_at = now(), updated_at = now()
                   WHERE tenant_id = $1 AND status = 'pending' AND expires_at > now()
                     AND (lower(recipient_email) = lower($2) OR api_client_id = ANY($3::uuid[]))
                   RETURNING id, api_client_id)
       SELECT r.id, r.api_client_id AS "apiClientId", c.client_id AS "clientId" FROM r JOIN api_clients c ON c.id = r.api_client_id`,
      [tenantId, recipientEmail, apiClientIds],
    );
  }

  async countForRequest(em: EntityManager, accessRequestId: string): Promise<number> {
    return em.getRepository(CredentialHandover).countBy({ accessRequestId });
  }

  /**
   * The single-use step: only a pending, unexpired handover flips to revealed. Of two concurrent
   * reveals the second waits on the row lock, re-checks, and matches nothing.
   */
  async claim(em: EntityManager, tenantId: string, tokenHash: Buffer, source: string | null): Promise<string | null> {
    const rows: Array<{ id: string }> = await em.query(
      `WITH r AS (UPDATE credential_handovers SET status = 'revealed', revealed_at = now(), revealed_from = $3, updated_at = now()
                   WHERE tenant_id = $1 AND token_hash = $2 AND status = 'pending' AND expires_at > now()
                   RETURNING id)
       SELECT id FROM r`,
      [tenantId, tokenHash, source],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * One sweep batch: up to `limit` pending handovers past their expiry (rows another sweeper holds
   * are skipped) become expired, in the caller's transaction; returns them for their mails.
   */
  async expireBatch(em: EntityManager, limit: number): Promise<ExpiredHandover[]> {
    const rows: Array<Record<string, unknown>> = await em.query(
      `WITH due AS (SELECT id FROM credential_handovers
                     WHERE status = 'pending' AND expires_at <= now()
                     ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
            expired AS (UPDATE credential_handovers h SET status = 'expired', updated_at = now()
                          FROM due WHERE h.id = due.id AND h.status = 'pending'
                        RETURNING h.id, h.tenant_id, h.api_client_id, h.recipient_email, h.expires_at, h.responsible_user_id)
       SELECT e.id, e.tenant_id, t.display_name AS tenant_name, c.client_id, c.display_name AS client_name,
              e.recipient_email, e.expires_at,
              COALESCE(CASE WHEN u.email IS NOT NULL THEN ARRAY[u.email] END, (SELECT array_agg(s.email ORDER BY s.created_at) FROM users s
                                         WHERE s.tenant_id = e.tenant_id AND s.status = 'active'
                                           AND 'ContactPerson' = ANY(s.roles)), '{}') AS notify
         FROM expired e
         JOIN tenants t ON t.id = e.tenant_id
         JOIN api_clients c ON c.id = e.api_client_id
         LEFT JOIN users u ON u.id = e.responsible_user_id AND u.status = 'active'`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id as string,
      tenantId: row.tenant_id as string,
      tenantName: row.tenant_name as string,
      clientId: row.client_id as string,
      clientName: row.client_name as string,
      recipientEmail: row.recipient_email as string,
      expiresAt: new Date(row.expires_at as string),
      notify: row.notify as string[],
    }));
  }
}
