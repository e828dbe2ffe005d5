import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonShapeFault } from './json-shape.js';

const nested = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1));

describe('jsonShapeFault', () => {
  it('accepts ordinary bodies and exactly the deepest allowed nesting', () => {
    expect(jsonShapeFault({ displayName: 'x', scopes: ['a', 'b'], nested: { list: [{ ok: 1 }] } })).toBeNull();
    expect(jsonShapeFault(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonShapeFault('text')).toBeNull();
  });

  it('refuses one level more, and 100,000 levels without overflowing the stack', () => {
    expect(jsonShapeFault(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'too_deep', maxDepth: MAX_JSON_DEPTH });
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(jsonShapeFault(deep)).toMatchObject({ kind: 'too_deep' });
  });

  it('refuses prototype keys anywhere, also the own "__proto__" key JSON.parse creates', () => {
    expect(jsonShapeFault(JSON.parse('{"__proto__":{"admin":true}}'))).toEqual({ kind: 'forbidden_key', key: '__proto__', path: '__proto__' });
    expect(jsonShapeFault(JSON.parse('{"a":[{"constructor":{"prototype":1}}]}'))).toMatchObject({ key: 'constructor', path: 'a.0.constructor' });
    expect(jsonShapeFault({ list: ['__proto__', 'prototype'] })).toBeNull(); // values are fine, only keys matter
  });
});
