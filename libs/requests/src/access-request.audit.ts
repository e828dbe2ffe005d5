import { EntityManager } from 'typeorm';
import type { Actor, AuditService } from '@gatehouse/audit';
import type { AccessRequest } from './access-request.entity.js';

/** An event of a request's trail (`target` = the request), in the transaction of its change. */
export function recordRequestEvent(
  audit: AuditService,
  em: EntityManager,
  actor: Actor,
  action: string,
  request: AccessRequest,
  details: Record<string, unknown>,
): Promise<void> {
  return audit.record(em, {
    tenantId: request.tenantId,
    actor,
    action,
    targetType: 'access_request',
    targetId: request.id,
    details,
  });
}
