import { describe, expect, it } from 'vitest';
import { permissionsOf } from '@gatehouse/accounts';
import { type Actor, SYSTEM_ACTOR } from '@gatehouse/audit';
import { isOperatorClient, mayManageClientOf } from './operator-client.policy.js';

const person = (userId: string, roles: Parameters<typeof permissionsOf>[0]): Actor => ({
  type: 'user',
  userId,
  clientId: null,
  permissions: permissionsOf(roles),
});

describe('operator client policy', () => {
  const staff = { id: 'owner', roles: ['ContactPerson'] as const };
  const partner = { id: 'partner', roles: [] as const };

  it('an operator client is one whose owner holds a role', () => {
    expect(isOperatorClient(staff)).toBe(true);
    expect(isOperatorClient(partner)).toBe(false);
    expect(isOperatorClient(null)).toBe(false);
  });

  it("is the owner's, the Administrators' and the system's alone", () => {
    expect(mayManageClientOf(person('owner', ['ContactPerson']), staff)).toBe(true);
    expect(mayManageClientOf(person('admin', ['Administrator']), staff)).toBe(true);
    expect(mayManageClientOf(SYSTEM_ACTOR, staff)).toBe(true);
    expect(mayManageClientOf(person('peer', ['ContactPerson']), staff)).toBe(false);
    expect(mayManageClientOf(person('peer', ['ContactPerson', 'ITDepartment', 'Auditor']), staff)).toBe(false);
    expect(mayManageClientOf({ type: 'client', userId: null, clientId: 'c', permissions: [] }, staff)).toBe(false);
    expect(mayManageClientOf({ type: 'user', userId: 'owner', clientId: null, permissions: [] }, { id: 'owner', roles: ['Administrator'] })).toBe(true);
  });

  it("leaves partners' clients to whoever holds the operation's permission", () => {
    expect(mayManageClientOf(person('peer', ['ContactPerson']), partner)).toBe(true);
    expect(mayManageClientOf(person('peer', ['ContactPerson']), null)).toBe(true);
  });
});
