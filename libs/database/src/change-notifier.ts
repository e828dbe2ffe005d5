import { EntityManager } from 'typeorm';

/** Postgres channel on which every replica hears that cached credentials or settings changed. */
export const CHANGE_CHANNEL = 'gatehouse_changes';

export type ChangeKind = 'client' | 'tenant' | 'keys' | 'user';

/**
 * Announces a change to every replica. Called inside the transaction that makes the change:
 * Postgres delivers the notification only when (and if) that transaction commits.
 */
export async function announceChange(em: EntityManager, kind: ChangeKind, tenantId: string, id = '*'): Promise<void> {
  await em.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `${kind}:${tenantId}:${id}`]);
}

export interface ChangeEvent {
  kind: ChangeKind;
  tenantId: string;
  id: string;
}

export function parseChange(payload: string): ChangeEvent | undefined {
  const [kind, tenantId, id] = payload.split(':');
  if (!kind || !tenantId || !id) return undefined;
  return { kind: kind as ChangeKind, tenantId, id };
}
