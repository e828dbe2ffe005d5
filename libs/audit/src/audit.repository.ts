import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEvent } from './audit-event.entity.js';
import { type CursorPosition, keysetCondition, keysetKey } from '@gatehouse/database';

export interface AuditQuery {
  tenantId: string;
  actor?: string;
  action?: string;
  target?: string;
  since?: Date;
  after?: CursorPosition;
  take: number;
}

@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, event: Partial<AuditEvent>): Promise<void> {
    const repository = em.getRepository(AuditEvent);
    await repository.save(repository.create(event));
  }

  /** Newest first; `actor` matches the person or the client, `action` is exact or a `prefix.*`. */
  find(query: AuditQuery): Promise<AuditEvent[]> {
    const qb = this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId', { tenantId: query.tenantId });
    if (query.actor) qb.andWhere('(e.actor_id = :actor OR e.actor_client_id = :actor)', { actor: query.actor });
    if (query.action?.endsWith('.*')) qb.andWhere('e.action LIKE :prefix', { prefix: `${likeEscape(query.action.slice(0, -1))}%` });
    else if (query.action) qb.andWhere('e.action = :action', { action: query.action });
    if (query.target) qb.andWhere('e.target_id = :target', { target: query.target });
    if (query.since) qb.andWhere('e.occurred_at >= :since', { since: query.since });
    if (query.after) {
      qb.andWhere(keysetCondition('e.occurred_at', 'e.id', '<'), {
        at: query.after.at,
        id: query.after.id,
      });
    }
    return qb
      .orderBy(keysetKey('e.occurred_at'), 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(query.take)
      .getMany();
  }
}

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
