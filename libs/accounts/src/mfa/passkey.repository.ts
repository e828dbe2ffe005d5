import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Passkey } from './passkey.entity.js';

/** Queries of passkeys. */
@Injectable()
export class PasskeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  listOf(tenantId: string, userId: string): Promise<Passkey[]> {
    return this.dataSource.getRepository(Passkey).find({ where: { tenantId, userId }, order: { createdAt: 'ASC' } });
  }

  /** The person's passkey with this credential id (another person's is never found). */
  find(tenantId: string, userId: string, credentialId: string): Promise<Passkey | null> {
    return this.dataSource.getRepository(Passkey).findOneBy({ tenantId, userId, credentialId });
  }

  async insert(em: EntityManager, passkey: Pick<Passkey, 'tenantId' | 'userId' | 'credentialId' | 'publicKey' | 'signCount' | 'transports' | 'name'>): Promise<void> {
    await em.getRepository(Passkey).insert(passkey);
  }

  /**
   * Records a use: the new signature counter, only if it moved forward (or both are 0, for
   * authenticators without a counter). Of two uses of one assertion, one wins.
   */
  async recordUse(id: string, previous: number, next: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH u AS (UPDATE passkeys SET sign_count = $3, last_used_at = now()
                   WHERE id = $1 AND sign_count = $2 AND ($3 > $2 OR ($2 = 0 AND $3 = 0)) RETURNING id)
       SELECT * FROM u`,
      [id, previous, next],
    );
    return rows.length === 1;
  }

  async remove(em: EntityManager, tenantId: string, userId: string, id: string): Promise<Passkey | null> {
    const passkey = await em.getRepository(Passkey).findOneBy({ tenantId, userId, id });
    if (passkey) await em.getRepository(Passkey).delete({ id: passkey.id });
    return passkey;
  }
}
