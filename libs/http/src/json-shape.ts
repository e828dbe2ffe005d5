/** Nesting a JSON body may have: every request body of Gatehouse is a few levels deep at most. */
export const MAX_JSON_DEPTH = 32;

/** Keys that reach an object's prototype when a body is copied or merged (prototype pollution). */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonShapeFault = { kind: 'too_deep'; maxDepth: number } | { kind: 'forbidden_key'; key: string; path: string };

/**
 * What makes a parsed JSON value unsafe to hand to the rest of the app: deeper than `maxDepth`
 * objects and arrays (a deep value overflows the stack of recursive code such as
 * class-transformer), or a key that names a prototype. Walks iteratively, so a value of any depth
 * is checked without recursion.
 */
export function jsonShapeFault(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonShapeFault | null {
  const pending: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 1, path: '' }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > maxDepth) return { kind: 'too_deep', maxDepth };
    const entries = Array.isArray(next.value)
      ? next.value.map((item, index) => [String(index), item] as const)
      : Object.entries(next.value);
    for (const [key, child] of entries) {
      const path = next.path ? `${next.path}.${key}` : key;
      if (!Array.isArray(next.value) && FORBIDDEN_JSON_KEYS.has(key)) return { kind: 'forbidden_key', key, path };
      pending.push({ value: child, depth: next.depth + 1, path });
    }
  }
  return null;
}
