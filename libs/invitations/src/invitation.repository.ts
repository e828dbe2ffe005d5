import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import type { CursorPosition } from '@gatehouse/database';
import { Invitation, type InvitationStatus } from './invitation.entity.js';
import { SupersededInvitationLink } from './superseded-invitation-link.entity.js';

export interface InvitationQuery {
  status?: InvitationStatus;
  userId?: string;
  /** Only invitations that open this section (slug). */
  section?: string;
  after?: CursorPosition;
  take: number;
}

/**
 * The sweep audits an invitation once it is this long past its expiry, not at once: an accept or a
 * resend that began before the expiry (its checks use its transaction's start time) has that long
 * to commit before the sweep's reading could miss it. Nobody sees the difference: an invitation
 * reads, lists and is refused as expired from its expiry on.
 */
export const SWEEP_GRACE_SECONDS = 60;

@Injectable()
export class InvitationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insert(em: EntityManager, invitation: Partial<Invitation>): Promise<Invitation> {
    return em.getRepository(Invitation).save(em.getRepository(Invitation).create(invitation));
  }

  save(em: EntityManager, invitation: Invitation): Promise<Invitation> {
    return em.getRepository(Invitation).save(invitation);
  }

  findById(tenantId: string, id: string, em?: EntityManager, lock = false): Promise<Invitation | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    return this.manager(em)
      .getRepository(Invitation)
      .findOne({ where: { tenantId, id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findByTokenHash(tenantId: string, tokenHash: Buffer, em?: EntityManager, lock = false): Promise<Invitation | null> {
    return this.manager(em)
      .getRepository(Invitation)
      .findOne({ where: { tenantId, tokenHash }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /** The invitation whose link a resend replaced with this one, if any. */
  async findBySupersededTokenHash(tenantId: string, tokenHash: Buffer, em?: EntityManager): Promise<Invitation | null> {
    const link = await this.manager(em).getRepository(SupersededInvitationLink).findOneBy({ tenantId, tokenHash });
    return link ? this.findById(tenantId, link.invitationId, em) : null;
  }

  /**
   * Gives the invitation a new link: the old link's hash is kept as superseded (so that following
   * it can say a newer one was sent), then the new hash, expiry and sending time replace it.
   */
  async replaceToken(em: EntityManager, invitation: Invitation, tokenHash: Buffer, expiresAt: Date, sentAt: Date): Promise<void> {
    await em.query(
      `INSERT INTO superseded_invitation_links (tenant_id, invitation_id, token_hash)
       SELECT tenant_id, id, token_hash FROM invitations WHERE tenant_id = $1 AND id = $2`,
      [invitation.tenantId, invitation.id],
    );
    await em
      .getRepository(Invitation)
      .update({ tenantId: invitation.tenantId, id: invitation.id }, { tokenHash, expiresAt, linkSentAt: sentAt });
  }

  /**
   * The single-use step: only a pending, unexpired invitation of this user flips to accepted.
   * Two concurrent accepts: the second waits on the row lock, re-checks, and matches nothing.
   */
  async accept(em: EntityManager, tenantId: string, tokenHash: Buffer, userId: string): Promise<Invitation | null> {
    if (!isUUID(userId)) return null;
    const rows: Array<{ id: string }> = await em.query(
      `WITH a AS (UPDATE invitations SET status = 'accepted', accepted_at = now(), updated_at = now()
                   WHERE tenant_id = $1 AND token_hash = $2 AND status = 'pending' AND expires_at > now() AND user_id = $3
                   RETURNING id)
       SELECT id FROM a`,
      [tenantId, tokenHash, userId],
    );
    return rows[0] ? this.findById(tenantId, rows[0].id, em) : null;
  }

  page(tenantId: string, query: InvitationQuery): Promise<Invitation[]> {
    const qb = this.dataSource
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .where('i.tenant_id = :tenantId', { tenantId });
    if (query.status === 'pending') qb.andWhere(`i.status = 'pending' AND i.expires_at > now()`);
    else if (query.status === 'expired')
      qb.andWhere(`(i.status = 'expired' OR (i.status = 'pending' AND i.expires_at <= now()))`);
    else if (query.status) qb.andWhere('i.status = :status', { status: query.status });
    if (query.userId) qb.andWhere('i.user_id = :userId', { userId: query.userId });
    if (query.section) qb.andWhere(':section = ANY(i.section_slugs)', { section: query.section });
    if (query.after) {
      qb.andWhere(`(date_trunc('milliseconds', i.created_at), i.id) > (:at, :id)`, {
        at: query.after.at,
        id: query.after.id,
      });
    }
    return qb.orderBy(`date_trunc('milliseconds', i.created_at)`).addOrderBy('i.id').take(query.take).getMany();
  }

  /**
   * One sweep batch, one statement: the next `limit` pending invitations past the sweep's position
   * that expired at least `SWEEP_GRACE_SECONDS` ago each get their audit event (named after the
   * invited person, as every invitation event is), and the position
   * moves to the last of them. The invitation rows are not written (what is past its expiry is
   * expired whatever its stored status). The position row is taken `SKIP LOCKED`: while another
   * sweeper (a replica) writes a batch this one gets nothing, and `null` says so. The commit does not
   * wait for its WAL to reach the disk: a batch lost to a crash is only a batch that the next sweep
   * audits again.
   */
  async expireBatch(limit: number): Promise<number | null> {
    const rows: Array<{ n: number; held: boolean }> = await this.dataSource.transaction(async (em) => {
      await em.query('SET LOCAL synchronous_commit = off');
      return em.query(
        `WITH position AS (SELECT expires_at, invitation_id FROM invitation_sweep_position WHERE id = 1 FOR UPDATE SKIP LOCKED),
              due AS (SELECT i.id, i.tenant_id, i.user_id, i.expires_at
                        FROM position p
                        CROSS JOIN LATERAL (SELECT id, tenant_id, user_id, expires_at FROM invitations
                                             WHERE status = 'pending' AND (expires_at, id) > (p.expires_at, p.invitation_id)
                                               AND expires_at <= now() - make_interval(secs => $2)
                                             ORDER BY expires_at, id
                                             LIMIT $1) i),
              audited AS (INSERT INTO audit_events (tenant_id, actor_type, actor_id, actor_client_id, action, target_type, target_id,
                                                    target_name, details)
                          SELECT d.tenant_id, 'system', NULL, NULL, 'invitation.expired', 'invitation', d.id::text,
                                 (SELECT u.display_name FROM users u WHERE u.id = d.user_id),
                                 jsonb_build_object('userId', d.user_id, 'expiresAt', d.expires_at)
                            FROM due d
                          RETURNING 1),
              moved AS (UPDATE invitation_sweep_position s SET expires_at = last.expires_at, invitation_id = last.id, updated_at = now()
                          FROM (SELECT expires_at, id FROM due ORDER BY expires_at DESC, id DESC LIMIT 1) last
                         WHERE s.id = 1
                        RETURNING 1)
         SELECT (SELECT count(*) FROM audited)::int AS n, EXISTS (SELECT 1 FROM position) AS held`,
        [limit, SWEEP_GRACE_SECONDS],
      );
    });
    return rows[0]?.held ? rows[0].n : null;
  }
}
