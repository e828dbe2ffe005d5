import { PerformanceObserver } from 'node:perf_hooks';
import { round } from './harness.js';

export interface GcPauses {
  /** Collections of this process while watched, their summed and longest pause, and when (s from the start) those of ≥ 20 ms began. */
  count: number;
  totalMs: number;
  maxMs: number;
  longAtS: number[];
  /** Heap in use when watching began (after the collection asked for first, when `--expose-gc` allows it). */
  heapUsedMbAtStart: number;
}

/**
 * Watches this process's garbage collections while a measured phase runs. The orchestrator shares
 * core 0 with the load generator's child: a long collection here (its marking threads are pinned
 * there too) delays requests the generator owes, which the figures would charge to the server. It
 * collects first when it can (`node --expose-gc`, as `npm run bench` starts it), so that a phase
 * does not inherit the heap of the phases before it.
 */
export function watchGcPauses(): { stop(): GcPauses } {
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const heapUsedMbAtStart = round(process.memoryUsage().heapUsed / 1048576, 1);
  const pauses: Array<{ atS: number; ms: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.startTime >= started) pauses.push({ atS: (entry.startTime - started) / 1000, ms: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      const total = pauses.reduce((sum, p) => sum + p.ms, 0);
      return {
        count: pauses.length,
        totalMs: round(total, 1),
        maxMs: round(Math.max(0, ...pauses.map((p) => p.ms)), 1),
        longAtS: pauses.filter((p) => p.ms >= 20).map((p) => round(p.atS, 1)),
        heapUsedMbAtStart,
      };
    },
  };
}
