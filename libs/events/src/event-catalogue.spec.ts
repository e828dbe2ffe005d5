import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_EVENTS, filterTakes, unknownFilterEntries } from './event-catalogue.js';

const LIBS = join(import.meta.dirname, '..', '..');
/** Action-like strings of the audited contexts, not object keys (`'api.purpose':`) or pairs (`['api.purpose', …]`). */
const CONTEXTS = /(?<!\[)'((?:access_request|api|client|doc_section|email|invitation|tenant|user|webhook)\.[a-z_]+(?:\.[a-z_]+)*)'(?!\s*:)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('the event catalogue', () => {
  it('knows every action name the code writes to the audit log', () => {
    const written = new Set<string>();
    for (const file of sources(LIBS)) for (const match of readFileSync(file, 'utf8').matchAll(CONTEXTS)) written.add(match[1]!);
    written.delete('webhook.tested'); // delivered to the tested subscription only
    const known = new Set<string>(KNOWN_EVENTS);
    expect([...written].filter((action) => !known.has(action))).toEqual([]);
  });

  it('matches exact names, prefixes and everything', () => {
    expect(filterTakes('client.secret.*', 'client.secret.created')).toBe(true);
    expect(filterTakes('client.secret.*', 'client.secretive')).toBe(false);
    expect(filterTakes('client.*', 'client.credential.stale')).toBe(true);
    expect(filterTakes('user.created', 'user.created')).toBe(true);
    expect(filterTakes('user.created', 'user.created.again')).toBe(false);
    expect(filterTakes('*', 'anything')).toBe(true);
  });

  it('names the filter entries that match no known event', () => {
    expect(unknownFilterEntries(['client.secret.*', 'client.credential.stale', '*'])).toEqual([]);
    expect(unknownFilterEntries(['client.secrets.*', 'user.create', 'client.secret.created'])).toEqual(['client.secrets.*', 'user.create']);
  });
});
