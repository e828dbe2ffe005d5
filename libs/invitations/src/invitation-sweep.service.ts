import { Injectable } from '@nestjs/common';
import { InvitationRepository } from './invitation.repository.js';

export const SWEEP_BATCH_SIZE = 1000;

export interface SweepResult {
  /** Rows expired by each batch, in order (an empty last batch is not listed). */
  batches: number[];
  expired: number;
}

/** Marks overdue pending invitations expired, audited, in bounded batches; safe on many replicas. */
@Injectable()
export class InvitationSweepService {
  constructor(private readonly invitations: InvitationRepository) {}

  async sweepExpired(batchSize = SWEEP_BATCH_SIZE, maxBatches = 1000): Promise<SweepResult> {
    const batches: number[] = [];
    for (let i = 0; i < maxBatches; i++) {
      const n = await this.invitations.expireBatch(batchSize);
      if (n > 0) batches.push(n);
      if (n < batchSize) break;
    }
    return { batches, expired: batches.reduce((a, b) => a + b, 0) };
  }
}
