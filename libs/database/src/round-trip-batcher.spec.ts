import { describe, expect, it } from 'vitest';
import { RoundTripBatcher } from './round-trip-batcher.js';

/** A `send` whose round trips the test completes by hand, recording what each carried. */
function manualSender() {
  const trips: Array<{ items: number[]; finish: () => void; fail: (error: Error) => void }> = [];
  const send = (items: number[]) =>
    new Promise<string[]>((resolve, reject) =>
      trips.push({ items, finish: () => resolve(items.map((i) => `answer ${i}`)), fail: reject }),
    );
  return { trips, send };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RoundTripBatcher', () => {
  it('sends a call alone while the bound allows, queues the rest and sends them together, each answered in order', async () => {
    const { trips, send } = manualSender();
    const batcher = new RoundTripBatcher(send, { maxInFlight: 2, maxBatch: 100 });
    const answers = [1, 2, 3, 4, 5].map((i) => batcher.submit(i));
    expect(trips.map((t) => t.items)).toEqual([[1], [2]]);
    trips[1]!.finish();
    await settle();
    expect(trips.map((t) => t.items)).toEqual([[1], [2], [3, 4, 5]]);
    trips[0]!.finish();
    trips[2]!.finish();
    expect(await Promise.all(answers)).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4', 'answer 5']);
  });

  it('never has more round trips in flight than the bound, nor more items in one than maxBatch', async () => {
    const { trips, send } = manualSender();
    const batcher = new RoundTripBatcher(send, { maxInFlight: 1, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit(i));
    for (let trip = 0; trip < 4; trip++) {
      expect(trips).toHaveLength(trip + 1);
      trips[trip]!.finish();
      await settle();
    }
    expect(trips.map((t) => t.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(await Promise.all(answers)).toHaveLength(6);
  });

  it('fails every call of a failed round trip, and only those; later calls go on', async () => {
    const { trips, send } = manualSender();
    const batcher = new RoundTripBatcher(send, { maxInFlight: 1, maxBatch: 10 });
    const first = batcher.submit(1);
    const queued = [batcher.submit(2), batcher.submit(3)];
    trips[0]!.fail(new Error('connection terminated'));
    await expect(first).rejects.toThrow('connection terminated');
    await settle();
    expect(trips[1]!.items).toEqual([2, 3]);
    trips[1]!.finish();
    expect(await Promise.all(queued)).toEqual(['answer 2', 'answer 3']);
  });

  it('turns a send that throws at once into failed calls instead of an exception in the caller', async () => {
    const batcher = new RoundTripBatcher<number, number>(
      () => {
        throw new Error('no pool');
      },
      { maxInFlight: 1, maxBatch: 10 },
    );
    await expect(batcher.submit(1)).rejects.toThrow('no pool');
    await expect(batcher.submit(2)).rejects.toThrow('no pool');
  });
});
