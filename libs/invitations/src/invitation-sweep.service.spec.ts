import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { InvitationRepository } from './invitation.repository.js';
import { InvitationSweepService } from './invitation-sweep.service.js';

const BATCH_MS = 100;

/** A repository whose batches take {@link BATCH_MS} each, expire `counts` in turn and note when they ran. */
function batchesOf(counts: number[]) {
  const left = [...counts];
  const ran: Array<{ start: number; end: number }> = [];
  const repository = {
    expireBatch: async () => {
      const start = performance.now();
      await setTimeout(BATCH_MS);
      ran.push({ start, end: performance.now() });
      return left.shift() ?? 0;
    },
  } as unknown as InvitationRepository;
  return { repository, ran };
}

describe('InvitationSweepService', () => {
  it('rests after each full batch for its share of the batch time, and not after the last', async () => {
    const { repository, ran } = batchesOf([10, 10, 5]);
    const result = await new InvitationSweepService(repository).sweepExpired(10, 0.5);
    const done = performance.now();
    expect(result).toEqual({ batches: [10, 10, 5], expired: 25 });
    expect(ran).toHaveLength(3);
    // Half of a 100 ms batch between one batch's end and the next one's start…
    for (const i of [1, 2]) expect(ran[i]!.start - ran[i - 1]!.end).toBeGreaterThanOrEqual(0.5 * BATCH_MS - 2);
    // …and none after the short batch that ends the sweep.
    expect(done - ran[2]!.end).toBeLessThan(0.5 * BATCH_MS);
  });
});
