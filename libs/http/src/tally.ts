import { Counter, type Registry } from 'prom-client';

/**
 * A counter that costs one integer increment where it is counted: prom-client reads it at scrape
 * time. For hot paths (the token endpoint), where even a label lookup per request shows up.
 */
export class Tally {
  count = 0;
}

/** Counts per label value (a reason, a result): one map update where it is counted. */
export class LabeledTally {
  readonly counts = new Map<string, number>();

  add(label: string, by = 1): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + by);
  }
}

export function exposeTally(registry: Registry, name: string, help: string, tally: Tally): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      if (tally.count > 0) this.inc(tally.count);
    },
  });
}

export function exposeLabeledTally(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  tally: LabeledTally,
): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of tally.counts) if (count > 0) this.inc({ [label]: value }, count);
    },
  });
}
