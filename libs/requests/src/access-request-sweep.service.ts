import { Injectable } from '@nestjs/common';
import { AccessRequestRepository } from './access-request.repository.js';
import { SOURCE_WINDOW_SECONDS } from './access-request.service.js';

/** Rows per batch (one statement each) and the most batches of one sweep; the next sweep goes on. */
export const REQUEST_SWEEP_BATCH_SIZE = 1000;
export const REQUEST_SWEEP_MAX_BATCHES = 100;

/** Scheduled upkeep of access requests: expiry of unconfirmed ones, stale throttle counters. */
@Injectable()
export class AccessRequestSweepService {
  constructor(private readonly requests: AccessRequestRepository) {}

  /** Marks requests unconfirmed for 24 hours `expired`, audited; safe on several replicas (SKIP LOCKED). */
  async expireUnconfirmed(batchSize = REQUEST_SWEEP_BATCH_SIZE): Promise<number> {
    let expired = 0;
    for (let batch = 0; batch < REQUEST_SWEEP_MAX_BATCHES; batch++) {
      const n = await this.requests.expireBatch(batchSize);
      expired += n;
      if (n < batchSize) break;
    }
    return expired;
  }

  /** Drops per-source counters whose window and block are over. */
  purgeStaleThrottles(): Promise<number> {
    return this.requests.purgeStaleThrottles(SOURCE_WINDOW_SECONDS);
  }
}
