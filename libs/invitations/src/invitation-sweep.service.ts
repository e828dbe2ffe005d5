import { Injectable } from '@nestjs/common';
import { InvitationRepository } from './invitation.repository.js';

/**
 * Rows per batch: one transaction, one statement (read, audit, move the position). Measured on
 * 1,000,000 overdue of 10,000,000 beside token traffic: see BENCHMARKS.md, "The sweep without
 * rewriting invitations".
 */
export const SWEEP_BATCH_SIZE = 5000;
/** Upper bound on the batches of one sweep, whatever the backlog; the next sweep goes on. */
export const SWEEP_MAX_BATCHES = 1000;

export interface SweepResult {
  /** Rows expired by each batch, in order (empty batches are not listed). */
  batches: number[];
  expired: number;
}

/**
 * Audits each overdue pending invitation once as expired, in bounded batches, in the order of
 * expiry; safe on many replicas (they take turns on the sweep's position, so none audits an
 * invitation another has).
 */
@Injectable()
export class InvitationSweepService {
  constructor(private readonly invitations: InvitationRepository) {}

  /**
   * Expires what is overdue, batch after batch, until a batch comes back short or another sweeper
   * holds the position (that one goes on with what is left).
   */
  async sweepExpired(batchSize = SWEEP_BATCH_SIZE): Promise<SweepResult> {
    const batches: number[] = [];
    for (let i = 0; i < SWEEP_MAX_BATCHES; i++) {
      const n = await this.invitations.expireBatch(batchSize);
      if (n) batches.push(n);
      if (n === null || n < batchSize) break;
    }
    return { batches, expired: batches.reduce((a, b) => a + b, 0) };
  }
}
