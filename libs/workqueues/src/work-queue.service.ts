import { Injectable } from '@nestjs/common';
import type { Permission } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';
import { type QueueName, type RecentEvent, WorkQueueRepository } from './work-queue.repository.js';

/** The work waiting for a person, by queue; a queue the person's roles do not work on is absent. */
export type WorkQueues = Partial<Record<QueueName, number>>;

/** Who works on which queue: the permission that acts on its items. */
export const QUEUE_PERMISSIONS: Record<QueueName, Permission> = {
  requestsToDecide: 'Requests.Decide',
  clientsAwaitingScopes: 'Scopes.Assign',
  secretsExpiring: 'Secrets.Manage',
  abandonedMail: 'Invitations.Manage',
  invitationsExpiring: 'Invitations.Manage',
  lockedAccounts: 'Users.Manage',
  handoversExpired: 'Secrets.Manage',
  credentialsOutsidePolicy: 'Secrets.Manage',
};

/**
 * The overview's work queues: access requests to decide, clients awaiting scopes, secrets expiring within 30 days (or expired
 * and still there), abandoned mail, invitations expiring within 48 hours, locked accounts, handovers
 * that expired without being revealed, credentials outside the tenant's policy. Counted
 * for the queues the actor's permissions act on, read fresh each time.
 */
@Injectable()
export class WorkQueueService {
  constructor(private readonly queues: WorkQueueRepository) {}

  for(tenantId: string, actor: Actor): Promise<WorkQueues> {
    const held = new Set(actor.permissions ?? []);
    const mine = (Object.keys(QUEUE_PERMISSIONS) as QueueName[]).filter((name) => held.has(QUEUE_PERMISSIONS[name]));
    return this.queues.count(tenantId, mine);
  }

  /** The last `limit` audit events of the tenant, for those who may read the audit log (else none). */
  async recentEvents(tenantId: string, actor: Actor, limit = 10): Promise<RecentEvent[] | null> {
    if (!(actor.permissions ?? []).includes('Audit.Read')) return null;
    return this.queues.recentEvents(tenantId, limit);
  }
}
