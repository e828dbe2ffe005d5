import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type FailureCount, FailureWindows } from '@gatehouse/database';

const THROTTLES = new FailureWindows('password_reset_throttles', 'subject');

/** Accounts one request may name: a username, or an address several accounts share. */
export const ACCOUNTS_PER_REQUEST = 5;

/** A claimed request with one account it names (or none: `userId` null). */
export interface ClaimedResetRequest {
  requestId: string;
  tenantId: string;
  source: string | null;
  userId: string | null;
  username: string | null;
  email: string | null;
  displayName: string | null;
}

/** Queries of self-service password resets: the waiting requests and their throttles. */
@Injectable()
export class PasswordResetRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The one write of the public form, whoever is named. */
  async enqueue(tenantId: string, identifier: string, source: string | null): Promise<void> {
    await this.dataSource.query(`INSERT INTO password_reset_requests (tenant_id, identifier, source) VALUES ($1, $2, $3)`, [
      tenantId,
      identifier,
      source,
    ]);
  }

  /**
   * Takes up to `limit` waiting requests (oldest first, SKIP LOCKED: workers never share one) and
   * deletes them in the caller's transaction, each joined to the active accounts whose username or
   * email address it names — one row per account, or one row without an account. Staff without a
   * password (invited, or started afresh by their first role) are left out: their way in is the
   * console link (password and second factor in one go), which an Administrator resends or revokes.
   */
  claimDue(em: EntityManager, limit: number): Promise<ClaimedResetRequest[]> {
    return em.query(
      `WITH due AS (
         DELETE FROM password_reset_requests
          WHERE id IN (SELECT id FROM password_reset_requests ORDER BY requested_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, tenant_id, identifier, source)
       SELECT d.id AS "requestId", d.tenant_id AS "tenantId", d.source, u.id AS "userId", u.username, u.email,
              u.display_name AS "displayName"
         FROM due d
         LEFT JOIN LATERAL (
           SELECT id, username, email, display_name FROM users
            WHERE tenant_id = d.tenant_id AND status = 'active'
              AND (username_normalized = lower(d.identifier) OR lower(email) = lower(d.identifier))
              AND NOT (cardinality(roles) > 0 AND password_hash IS NULL)
            ORDER BY created_at, id LIMIT $2) u ON true`,
      [limit, ACCOUNTS_PER_REQUEST],
    );
  }

  /** Counts one request of `subject` (`source:…` or `address:…`) in its window. */
  count(tenantId: string, subject: string, windowSeconds: number, limit: number, em?: EntityManager): Promise<FailureCount> {
    return THROTTLES.record(em ?? this.dataSource, tenantId, subject, windowSeconds, limit);
  }

  purgeStaleThrottles(windowSeconds: number): Promise<number> {
    return THROTTLES.purgeStale(this.dataSource, windowSeconds);
  }
}
