/**
 * How an event's names are read when it is written, in the INSERT itself (no extra round trip,
 * in the transaction of the change): the actor's display name and username, and the target's
 * name by its type. Constants of this file, never input. Parameters: `$1` tenant id, `$2` actor
 * type, `$3` the actor's user id as a uuid (or null), `$4` the actor's client id as a uuid (or
 * null), `$14` the target id as a uuid (passed only when the target's type has a name).
 */
const TARGET_NAMES: Record<string, string> = {
  user: `SELECT display_name FROM users WHERE tenant_id = $1 AND id = $14`,
  client: `SELECT display_name FROM api_clients WHERE tenant_id = $1 AND client_id = $14`,
  api: `SELECT display_name FROM apis WHERE tenant_id = $1 AND id = $14`,
  tenant: `SELECT display_name FROM tenants WHERE id = $14`,
  doc_section: `SELECT title FROM doc_sections WHERE tenant_id = $1 AND id = $14`,
  invitation: `SELECT u.display_name FROM invitations i JOIN users u ON u.id = i.user_id WHERE i.tenant_id = $1 AND i.id = $14`,
  access_request: `SELECT requester_name FROM access_requests WHERE tenant_id = $1 AND id = $14`,
  organisation: `SELECT name FROM organisations WHERE tenant_id = $1 AND id = $14`,
  email: `SELECT to_address FROM emails WHERE tenant_id = $1 AND id = $14`,
};

/** The target's name as a scalar subquery, for the target types that have one. */
export function targetNameSql(targetType: string): string | null {
  const query = TARGET_NAMES[targetType];
  return query ? `(${query})` : null;
}

export const ACTOR_NAME_SQL = `CASE $2::text WHEN 'user' THEN (SELECT display_name FROM users WHERE tenant_id = $1 AND id = $3)
  WHEN 'client' THEN (SELECT display_name FROM api_clients WHERE tenant_id = $1 AND client_id = $4) END`;

export const ACTOR_USERNAME_SQL = `CASE $2::text WHEN 'user' THEN (SELECT username FROM users WHERE tenant_id = $1 AND id = $3) END`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as a uuid parameter, or null when it is none (a slug, a free-text id). */
export function uuidOrNull(value: string | null | undefined): string | null {
  return value && UUID.test(value) ? value : null;
}
