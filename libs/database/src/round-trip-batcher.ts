import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

interface Waiting<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups calls into round trips: a call made while fewer than `maxInFlight` round trips run is
 * sent at once, alone; calls made while they run queue and go together in the next one (at most
 * `maxBatch` each). Idle, a call costs one round trip as before; under load one statement serves
 * many requests, and a slow round trip does not idle the process. `send` answers one output per
 * item, in order; its failure fails every call of that round trip.
 */
export class RoundTripBatcher<I, O> {
  private queue: Array<Waiting<I, O>> = [];
  private inFlight = 0;

  constructor(
    private readonly send: (items: I[]) => Promise<O[]>,
    private readonly options: { maxInFlight: number; maxBatch: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.inFlight < this.options.maxInFlight) this.flush();
    });
  }

  private flush(): void {
    this.inFlight++;
    const batch = this.queue.length <= this.options.maxBatch ? this.queue : this.queue.slice(0, this.options.maxBatch);
    this.queue = batch === this.queue ? [] : this.queue.slice(batch.length);
    let sent: Promise<O[]>;
    try {
      sent = this.send(batch.map((waiting) => waiting.item));
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent
      .then(
        (outputs) => batch.forEach((waiting, i) => waiting.resolve(outputs[i]!)),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        this.inFlight--;
        while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) this.flush();
      });
  }
}

/**
 * The `pg` pool under a TypeORM data source, for the hot path's named (prepared) statements:
 * TypeORM sends every query unnamed, parsed and planned again each time.
 */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}
