import { describe, expect, it } from 'vitest';
import { changesOf, saysWhatChanged } from './audit-changes.js';

describe('what an audit event says changed', () => {
  it('lists added and removed items of a set (client.scopes.set)', () => {
    const changes = changesOf({ before: ['api://a/Read', 'api://a/Write'], after: ['api://a/Read', 'api://b/Read'], state: 'active' });
    expect(changes).toEqual({ fields: [], added: ['api://b/Read'], removed: ['api://a/Write'] });
  });

  it('lists the fields whose value changed, old and new (user.updated, tenant.settings.updated, api.updated)', () => {
    const user = changesOf({ before: { email: 'a@x', displayName: 'Ada', roles: ['Auditor'] }, changes: { displayName: 'System', roles: ['Auditor'] } });
    expect(user.fields).toEqual([{ field: 'displayName', before: 'Ada', after: 'System' }]);
    const api = changesOf({ before: { displayName: 'Orders', accessTokenVersion: 2 }, after: { displayName: 'Orders', accessTokenVersion: 1 } });
    expect(api.fields).toEqual([{ field: 'accessTokenVersion', before: 2, after: 1 }]);
  });

  it('reads a state change (client.disabled) and explicit added/removed lists', () => {
    expect(changesOf({ before: 'active', state: 'disabled' }).fields).toEqual([{ field: 'state', before: 'active', after: 'disabled' }]);
    expect(changesOf({ added: ['x'], removed: [] })).toEqual({ fields: [], added: ['x'], removed: [] });
  });

  it('says nothing changed when the details do not say', () => {
    expect(saysWhatChanged(changesOf({ keyId: 'k', hint: 'abc' }))).toBe(false);
    expect(saysWhatChanged(changesOf({ before: 'active', state: 'active' }))).toBe(false);
  });
});
