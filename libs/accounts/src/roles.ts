/** Roles are bundles of the admin API's scopes (permissions). */
export type Role = 'Administrator' | 'ContactPerson' | 'ITDepartment' | 'Auditor';
export const ROLES: Role[] = ['Administrator', 'ContactPerson', 'ITDepartment', 'Auditor'];

/** A role as people name it: pages and mails never show the id ("ContactPerson"). */
export const ROLE_NAMES: Readonly<Record<Role, string>> = {
  Administrator: 'Administrator',
  ContactPerson: 'Contact person',
  ITDepartment: 'IT department',
  Auditor: 'Auditor',
};

/** Several roles in words: "Contact person and IT department". */
export function roleNames(roles: readonly Role[]): string {
  const names = roles.map((role) => ROLE_NAMES[role] ?? role);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'no role');
}

export type Permission =
  | 'Tenant.Manage'
  | 'Users.Read'
  | 'Users.Manage'
  | 'Invitations.Manage'
  | 'Docs.Manage'
  | 'Clients.Read'
  | 'Clients.Manage'
  | 'Secrets.Manage'
  | 'Apis.Manage'
  | 'Scopes.Assign'
  | 'Audit.Read'
  | 'Requests.Read'
  | 'Requests.Decide';

const CONTACT_PERSON: Permission[] = [
  'Users.Read',
  'Users.Manage',
  'Invitations.Manage',
  'Docs.Manage',
  'Clients.Read',
  'Clients.Manage',
  'Secrets.Manage',
  'Requests.Read',
  'Requests.Decide',
];
const IT_DEPARTMENT: Permission[] = ['Apis.Manage', 'Scopes.Assign', 'Clients.Read', 'Requests.Read'];
const AUDITOR: Permission[] = ['Audit.Read', 'Users.Read', 'Clients.Read', 'Requests.Read'];

export const ALL_PERMISSIONS: Permission[] = [
  'Tenant.Manage',
  ...new Set<Permission>([...CONTACT_PERSON, ...IT_DEPARTMENT, ...AUDITOR]),
];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  Administrator: ALL_PERMISSIONS,
  ContactPerson: CONTACT_PERSON,
  ITDepartment: IT_DEPARTMENT,
  Auditor: AUDITOR,
};

/** The admin API scopes a person holds through their roles, sorted and without duplicates. */
export function permissionsOf(roles: readonly Role[]): Permission[] {
  const held = new Set<Permission>();
  for (const role of roles) for (const permission of ROLE_PERMISSIONS[role] ?? []) held.add(permission);
  return ALL_PERMISSIONS.filter((permission) => held.has(permission));
}
