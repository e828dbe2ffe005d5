/**
 * Every scheduled job of the worker, declared in one place. Each handler is thin: it finds the
 * due work in one query and does it in bounded batches, safe on several replicas at once.
 */
export interface Schedule {
  name: string;
  everyMs: number;
}

export const SCHEDULES = {
  /** Rolls signing keys past their active age; published keys outlive every token they signed. */
  keyRotation: { name: 'key-rotation', everyMs: 60 * 60 * 1000 },
} satisfies Record<string, Schedule>;
