const SETTLED = 1;
/** Read since the eviction hand last passed it (the second chance of the CLOCK policy). */
const USED = 2;

/**
 * The storage of a {@link ChangeAwareCache}: entries in parallel arrays indexed by slot, and a
 * Map from key to slot. An entry is its key, its tenant, its value and two numbers: no object of
 * its own. At 150,000 cached clients an object per entry (and the objects hanging from it) was
 * what every major collection of the token replica had to mark — 145 MB of them, a quarter of a
 * second's stall each time (BENCHMARKS.md); arrays of numbers are not marked at all, arrays of
 * references only slot by slot.
 *
 * Slots are reused through a free list, so the arrays never grow past the bound. Eviction is
 * CLOCK over the slots: the hand skips (and clears) entries read since it last passed, and
 * evicts the first one not read.
 */
export class SlotTable {
  private readonly index = new Map<string, number>();
  private readonly keys: Array<string | undefined> = [];
  private readonly tenants: string[] = [];
  /** The stored form of the value, or the promise of a load in flight. */
  private readonly values: unknown[] = [];
  /** Epoch milliseconds: a plain array of doubles, which the collector does not scan. */
  private readonly expires: number[] = [];
  private readonly flags: number[] = [];
  private free: number[] = [];
  private hand = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.index.size;
  }

  /** The key's slot, or -1. */
  find(key: string): number {
    return this.index.get(key) ?? -1;
  }

  /**
   * Stores an entry (settled or a load in flight) and answers its slot: the key's own slot when
   * it has one, else a free one, else the slot of an evicted entry when the table is full.
   */
  put(key: string, tenantId: string, value: unknown, expiresAt: number, settled: boolean): number {
    let slot = this.find(key);
    if (slot < 0) {
      if (this.index.size >= this.capacity) this.evictOne();
      slot = this.free.pop() ?? this.keys.length;
      if (slot === this.keys.length) {
        this.keys.push(key);
        this.tenants.push(tenantId);
        this.values.push(value);
        this.expires.push(expiresAt);
        this.flags.push(0);
      }
      this.index.set(key, slot);
      this.keys[slot] = key; // an existing slot keeps the key string the index holds
    }
    this.tenants[slot] = tenantId;
    this.values[slot] = value;
    this.expires[slot] = expiresAt;
    this.flags[slot] = settled ? SETTLED : 0;
    return slot;
  }

  /**
   * Settles the load `pending` with its stored form, unless its slot was dropped or reused
   * meanwhile. `previous` is what the slot held before the load (a refresh after the entry's TTL):
   * when the new form equals it, the old one is kept and the new one dies young, so that a
   * refresh of an unchanged entry leaves no garbage in the old generation.
   */
  settle(slot: number, pending: unknown, stored: unknown, previous?: unknown): void {
    if (this.values[slot] !== pending) return;
    this.values[slot] = previous !== undefined && previous === stored ? previous : stored;
    this.flags[slot] = this.flags[slot]! | SETTLED;
  }

  /** Drops the failed load `pending`, unless its slot was dropped or reused meanwhile. */
  abandon(slot: number, pending: unknown): void {
    if (this.values[slot] === pending) this.remove(slot);
  }

  value(slot: number): unknown {
    return this.values[slot];
  }

  settled(slot: number): boolean {
    return (this.flags[slot]! & SETTLED) !== 0;
  }

  expiresAt(slot: number): number {
    return this.expires[slot]!;
  }

  tenantOf(slot: number): string {
    return this.tenants[slot]!;
  }

  markUsed(slot: number): void {
    this.flags[slot] = this.flags[slot]! | USED;
  }

  remove(slot: number): void {
    const key = this.keys[slot];
    if (key === undefined) return;
    this.index.delete(key);
    this.keys[slot] = undefined;
    this.tenants[slot] = '';
    this.values[slot] = undefined;
    this.expires[slot] = 0;
    this.flags[slot] = 0;
    this.free.push(slot);
  }

  /** Drops every entry whose key and tenant `drop` names. */
  removeWhere(drop: (key: string, tenantId: string) => boolean): void {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const key = this.keys[slot];
      if (key !== undefined && drop(key, this.tenants[slot]!)) this.remove(slot);
    }
  }

  clear(): void {
    this.index.clear();
    for (const list of [this.keys, this.tenants, this.values, this.expires, this.flags]) list.length = 0;
    this.free = [];
    this.hand = 0;
  }

  /** Frees one slot (the table is full, so every slot holds an entry); ends within two laps. */
  private evictOne(): void {
    for (;;) {
      if (this.hand >= this.keys.length) this.hand = 0;
      const slot = this.hand++;
      if (this.keys[slot] === undefined) continue;
      if ((this.flags[slot]! & USED) === 0) return this.remove(slot);
      this.flags[slot] = this.flags[slot]! & ~USED;
    }
  }
}
