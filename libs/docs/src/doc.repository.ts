import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager, In } from 'typeorm';
import type { CursorPosition } from '@gatehouse/database';
import { DocSection } from './doc-section.entity.js';

@Injectable()
export class DocRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insert(em: EntityManager, section: Partial<DocSection>): Promise<DocSection> {
    return em.getRepository(DocSection).save(em.getRepository(DocSection).create(section));
  }

  save(em: EntityManager, section: DocSection): Promise<DocSection> {
    return em.getRepository(DocSection).save(section);
  }

  async delete(em: EntityManager, section: DocSection): Promise<void> {
    await em.getRepository(DocSection).delete({ tenantId: section.tenantId, id: section.id });
  }

  findBySlug(tenantId: string, slug: string, em?: EntityManager, lock = false): Promise<DocSection | null> {
    return this.manager(em)
      .getRepository(DocSection)
      .findOne({ where: { tenantId, slug }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findBySlugs(tenantId: string, slugs: string[], em?: EntityManager): Promise<DocSection[]> {
    if (!slugs.length) return Promise.resolve([]);
    return this.manager(em).getRepository(DocSection).find({ where: { tenantId, slug: In(slugs) }, order: { slug: 'ASC' } });
  }

  page(tenantId: string, query: { after?: CursorPosition; take: number }): Promise<DocSection[]> {
    const qb = this.dataSource.getRepository(DocSection).createQueryBuilder('d').where('d.tenant_id = :tenantId', { tenantId });
    if (query.after) {
      qb.andWhere(`(date_trunc('milliseconds', d.created_at), d.id) > (:at, :id)`, { at: query.after.at, id: query.after.id });
    }
    return qb.orderBy(`date_trunc('milliseconds', d.created_at)`).addOrderBy('d.id').take(query.take).getMany();
  }

  /** Opens the named sections to a user in one statement; sections already open stay as they are. */
  async grant(em: EntityManager, tenantId: string, userId: string, slugs: string[]): Promise<string[]> {
    const rows: Array<{ slug: string }> = await em.query(
      `WITH s AS (SELECT id, slug FROM doc_sections WHERE tenant_id = $1 AND slug = ANY($3::text[])),
            g AS (INSERT INTO doc_section_grants (user_id, section_id, tenant_id)
                  SELECT $2, s.id, $1 FROM s ON CONFLICT DO NOTHING)
       SELECT slug FROM s ORDER BY slug`,
      [tenantId, userId, slugs],
    );
    return rows.map((r) => r.slug);
  }

  async revoke(em: EntityManager, tenantId: string, userId: string, slug: string): Promise<boolean> {
    if (!isUUID(userId)) return false;
    const rows: Array<{ n: number }> = await em.query(
      `WITH d AS (DELETE FROM doc_section_grants g USING doc_sections s
                   WHERE g.section_id = s.id AND s.tenant_id = $1 AND g.tenant_id = $1 AND g.user_id = $2 AND s.slug = $3
                   RETURNING g.section_id)
       SELECT count(*)::int AS n FROM d`,
      [tenantId, userId, slug],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  async sectionsOf(tenantId: string, userId: string): Promise<Array<{ slug: string; title: string }>> {
    if (!isUUID(userId)) return [];
    return this.dataSource.query(
      `SELECT s.slug, s.title FROM doc_sections s JOIN doc_section_grants g ON g.section_id = s.id
        WHERE s.tenant_id = $1 AND g.tenant_id = $1 AND g.user_id = $2 ORDER BY s.title, s.slug`,
      [tenantId, userId],
    );
  }

  async sectionFor(tenantId: string, userId: string, slug: string): Promise<{ slug: string; title: string; body: string } | null> {
    if (!isUUID(userId)) return null;
    const rows: Array<{ slug: string; title: string; body: string }> = await this.dataSource.query(
      `SELECT s.slug, s.title, s.body FROM doc_sections s JOIN doc_section_grants g ON g.section_id = s.id
        WHERE s.tenant_id = $1 AND g.tenant_id = $1 AND g.user_id = $2 AND s.slug = $3`,
      [tenantId, userId, slug],
    );
    return rows[0] ?? null;
  }

  /** The users a section is open to, by name (tenant-scoped on both sides). */
  readers(tenantId: string, slug: string): Promise<SectionReader[]> {
    return this.dataSource.query(
      `SELECT u.id AS "userId", u.username, u.display_name AS "displayName", u.email, u.status, g.granted_at AS "grantedAt"
         FROM doc_sections s
         JOIN doc_section_grants g ON g.section_id = s.id AND g.tenant_id = $1
         JOIN users u ON u.id = g.user_id AND u.tenant_id = $1
        WHERE s.tenant_id = $1 AND s.slug = $2
        ORDER BY u.display_name, u.username`,
      [tenantId, slug],
    );
  }
}

/** A user a section is open to. */
export interface SectionReader {
  userId: string;
  username: string;
  displayName: string;
  email: string;
  status: string;
  grantedAt: Date;
}
