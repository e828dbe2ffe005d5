import { setTimeout } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { InvitationRepository } from './invitation.repository.js';

/**
 * Rows per batch: one transaction, one statement (read, audit, move the position); ≈ 10 ms of one
 * database backend. Small batches hand the cores back often: beside token traffic on two cores a
 * batch of 20,000 (≈ 0.3 s) kept the traffic's p99 at 10–11 ms in every second, batches of 300–500
 * at 8.4–8.5 ms in the sweep experiments (10.2 and 12.1 ms in two full runs, set by a few slow
 * seconds), while batches of 100–200 spent more on round trips than they saved (BENCHMARKS.md,
 * "Session of 2026-11-27, evening: small batches").
 */
export const SWEEP_BATCH_SIZE = 500;
/** Upper bound on the batches of one sweep, whatever the backlog; the next sweep goes on. */
export const SWEEP_MAX_BATCHES = 10_000;
/**
 * After a full batch the sweep rests this fraction of the time the batch took before the next, so a
 * backlog's batches leave the database (often on the cores token traffic needs) a share of its CPU:
 * measured in BENCHMARKS.md, "The sweep beside token traffic: the database core it takes", "The
 * sweep's rest on Node 24" and, for batches of 500, "Session of 2026-11-27, evening: small batches"
 * (with batches of 500 the traffic's p99 was 8.4–8.5 ms resting 0.15 or 0.25 of the time, and the
 * sweep of a million 24.8 s against 28.6 — the rest is paid on every batch).
 */
export const SWEEP_REST_RATIO = 0.15;

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
   * Expires what is overdue, batch after batch with a rest between ({@link SWEEP_REST_RATIO}), until
   * a batch comes back short or another sweeper holds the position (that one goes on with what is left).
   */
  async sweepExpired(batchSize = SWEEP_BATCH_SIZE, restRatio = SWEEP_REST_RATIO): Promise<SweepResult> {
    const batches: number[] = [];
    for (let i = 0; i < SWEEP_MAX_BATCHES; i++) {
      const started = performance.now();
      const n = await this.invitations.expireBatch(batchSize);
      if (n) batches.push(n);
      if (n === null || n < batchSize) break;
      await setTimeout((performance.now() - started) * restRatio);
    }
    return { batches, expired: batches.reduce((a, b) => a + b, 0) };
  }
}
