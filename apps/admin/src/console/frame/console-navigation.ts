import type { Permission } from '@gatehouse/accounts';
import type { NavItem } from '@gatehouse/views';
import type { WorkQueues } from '@gatehouse/workqueues';

/** One entry of the console's sidebar: a page group, the permission that opens it, its waiting work. */
export interface ConsoleSection {
  label: string;
  /** Under the console's base, without a leading slash ('' is the Overview). */
  path: string;
  /** `null`: every signed-in staff member. */
  permission: Permission | null;
  /** The waiting work shown beside the entry, from the person's work queues. */
  count?: (queues: WorkQueues) => number | undefined;
  countLabel?: string;
}

/**
 * The sidebar, in the order of CONSOLE.md. A page group adds its entry here (and nowhere else):
 * the navigation then shows it to exactly the people whose roles hold its permission.
 */
export const CONSOLE_SECTIONS: ConsoleSection[] = [
  { label: 'Overview', path: '', permission: null },
  { label: 'Access requests', path: 'requests', permission: 'Requests.Read', count: (q) => q.requestsToDecide, countLabel: 'waiting for a decision' },
  { label: 'Users', path: 'users', permission: 'Users.Read' },
  { label: 'Clients', path: 'clients', permission: 'Clients.Read', count: (q) => q.clientsAwaitingScopes, countLabel: 'awaiting scopes' },
  { label: 'Organisations', path: 'organisations', permission: 'Users.Read' },
  { label: 'APIs & scopes', path: 'apis', permission: 'Clients.Read' },
  { label: 'Documentation', path: 'docs', permission: 'Docs.Manage' },
  { label: 'Email', path: 'email', permission: 'Invitations.Manage', count: (q) => q.abandonedMail, countLabel: 'abandoned' },
  { label: 'Audit', path: 'audit', permission: 'Audit.Read' },
  { label: 'Staff', path: 'staff', permission: 'Tenant.Manage' },
  { label: 'Webhooks', path: 'webhooks', permission: 'Tenant.Manage' },
  { label: 'Signing keys', path: 'keys', permission: 'Tenant.Manage' },
  { label: 'Credential policy', path: 'credential-policy', permission: 'Tenant.Manage' },
];

/** The console's own links beside the person's name. */
export const ACCOUNT_PATH = 'account';

function isCurrent(section: ConsoleSection, path: string): boolean {
  return section.path === '' ? path === '' : path === section.path || path.startsWith(`${section.path}/`);
}

/** The sections the permissions open, with counts; `path` is the page's path under the base. */
export function consoleNav(base: string, permissions: readonly Permission[], queues: WorkQueues, path: string): NavItem[] {
  return CONSOLE_SECTIONS.filter((s) => s.permission === null || permissions.includes(s.permission)).map((s) => ({
    label: s.label,
    href: s.path ? `${base}/${s.path}` : base,
    count: s.count?.(queues),
    countLabel: s.countLabel,
    current: isCurrent(s, path),
  }));
}
