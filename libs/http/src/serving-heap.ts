import { setFlagsFromString } from 'node:v8';

/**
 * Tunes V8's heap for a long-running server; called first by every process that serves (and by the
 * benchmark's server, which must run as production does).
 *
 * Allocation-site pretenuring off: while the token cache fills (start-up preload, first traffic)
 * every client snapshot the database returns survives, so V8 marks the sites that build them — and
 * the driver's rows — to allocate straight into the old generation, and never takes that back. Once
 * the cache is full, the snapshots of clients it does not admit die within milliseconds, but in old
 * space: at a million clients round robin that was about 1.8 MB of old garbage a second, a full
 * mark-compact of a 320 MB heap every 100 s, and a quarter-second stall of every request on the
 * replica's core. Without pretenuring they die in the young generation, where that costs nothing.
 */
export function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
