import type { ActorType } from './audit-event.entity.js';

/** Who makes a change: a person through their client, a client without owner, or the system. */
export interface Actor {
  type: ActorType;
  userId: string | null;
  clientId: string | null;
  /** Effective admin permissions; absent for the system (bootstrap, scheduler), which may do anything. */
  permissions?: readonly string[];
  requestId?: string;
  /** The address the request came from (Express' `req.ip` under `TRUST_PROXY`), kept on the audit event. */
  sourceAddress?: string;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', userId: null, clientId: null };
