/** Probes per key: with ten bits a key, 7 give about 1 % false positives at the full count. */
const PROBES = 7;

/**
 * TinyLFU's doorkeeper: the keys seen once since the last reset, as a Bloom filter of fixed size
 * (about ten bits a key, at least 4,096). It is reset after `capacity` keys, so it remembers at
 * least the last `capacity` of them. A false positive (about 1 % when full) only lets a key in on
 * its first request.
 *
 * A Set of hashes did the same, but grew, rehashed and held a heap number for every second hash;
 * at a million clients round robin it was the largest source of garbage that outlived the young
 * generation. This allocates nothing after construction.
 */
export class Doorkeeper {
  private readonly words: Uint32Array;
  private readonly mask: number;
  private recorded = 0;

  constructor(private readonly capacity: number) {
    const bits = Math.max(4096, 2 ** Math.ceil(Math.log2(Math.max(1, capacity) * 10)));
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** True when `key` was recorded since the last reset; else records it (resetting first when full). */
  seenBefore(key: string): boolean {
    const first = fnv1a(key);
    const step = mix(first) | 1;
    if (this.holds(first, step)) return true;
    if (this.recorded >= this.capacity) {
      this.words.fill(0);
      this.recorded = 0;
    }
    for (let i = 0; i < PROBES; i++) {
      const bit = this.bitOf(first, step, i);
      this.words[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.recorded++;
    return false;
  }

  private holds(first: number, step: number): boolean {
    for (let i = 0; i < PROBES; i++) {
      const bit = this.bitOf(first, step, i);
      if ((this.words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** The filter's bit for probe `i` of a key (double hashing). */
  private bitOf(first: number, step: number, i: number): number {
    return (first + Math.imul(i, step)) & this.mask;
  }
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/** A second, independent-looking hash from the first (murmur3's finalizer), for double hashing. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
