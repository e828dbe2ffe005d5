import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { uniqueViolation } from '@gatehouse/database';
import type { DocSection } from './doc-section.entity.js';
import { DocError, DocErrorCode } from './doc.errors.js';
import { DocRepository, type SectionReader } from './doc.repository.js';

export interface DocSectionInput {
  slug: string;
  title: string;
  body: string;
}

export interface DocSectionView {
  slug: string;
  title: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface SectionSummary {
  slug: string;
  title: string;
}

export function toDocSectionView(section: DocSection): DocSectionView {
  return {
    slug: section.slug,
    title: section.title,
    body: section.body,
    createdAt: section.createdAt.toISOString(),
    updatedAt: section.updatedAt.toISOString(),
  };
}

/** Private documentation sections and who may read them. */
@Injectable()
export class DocService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly docs: DocRepository,
    private readonly audit: AuditService,
  ) {}

  async create(tenantId: string, actor: Actor, input: DocSectionInput): Promise<DocSectionView> {
    try {
      return await this.dataSource.transaction(async (em) => {
        const section = await this.docs.insert(em, { tenantId, slug: input.slug, title: input.title, body: input.body });
        await this.record(em, tenantId, actor, 'doc_section.created', section, { slug: section.slug, title: section.title });
        return toDocSectionView(section);
      });
    } catch (error) {
      if (uniqueViolation(error) === 'doc_sections_tenant_slug_key') {
        throw new DocError(DocErrorCode.SlugTaken, `A section with the slug ${input.slug} exists.`);
      }
      throw error;
    }
  }

  async list(tenantId: string, filter: PageRequest): Promise<Page<DocSectionView>> {
    const size = pageSize(filter.limit);
    const rows = await this.docs.page(tenantId, { after: decodeCursor(filter.cursor), take: size + 1 });
    return toPage(rows, size, (d) => ({ at: d.createdAt, id: d.id }), toDocSectionView);
  }

  async get(tenantId: string, slug: string): Promise<DocSectionView> {
    const section = await this.docs.findBySlug(tenantId, slug);
    if (!section) throw notFound();
    return toDocSectionView(section);
  }

  update(tenantId: string, actor: Actor, slug: string, input: { title?: string; body?: string }): Promise<DocSectionView> {
    return this.dataSource.transaction(async (em) => {
      const section = await this.docs.findBySlug(tenantId, slug, em, true);
      if (!section) throw notFound();
      if (input.title !== undefined) section.title = input.title;
      if (input.body !== undefined) section.body = input.body;
      const saved = await this.docs.save(em, section);
      const changed = Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined);
      await this.record(em, tenantId, actor, 'doc_section.updated', saved, { slug, changed });
      return toDocSectionView(saved);
    });
  }

  remove(tenantId: string, actor: Actor, slug: string): Promise<void> {
    return this.dataSource.transaction(async (em) => {
      const section = await this.docs.findBySlug(tenantId, slug, em, true);
      if (!section) throw notFound();
      await this.docs.delete(em, section);
      await this.record(em, tenantId, actor, 'doc_section.deleted', section, { slug, title: section.title });
    });
  }

  /** Closes one section to one user. */
  revokeAccess(tenantId: string, actor: Actor, userId: string, slug: string): Promise<void> {
    return this.dataSource.transaction(async (em) => {
      if (!(await this.docs.revoke(em, tenantId, userId, slug))) {
        throw new DocError(DocErrorCode.AccessNotFound, 'That user has no access to that section.');
      }
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'doc_section.access_revoked',
        targetType: 'user',
        targetId: userId,
        details: { slug },
      });
    });
  }

  /** Who can read a section: the users it is open to (pending invitations are the invitations' to tell). */
  async readers(tenantId: string, slug: string): Promise<SectionReader[]> {
    await this.get(tenantId, slug);
    return this.docs.readers(tenantId, slug);
  }

  /** The existing sections among `slugs` (inside a caller's transaction when `em` is given). */
  async findBySlugs(tenantId: string, slugs: string[], em?: EntityManager): Promise<SectionSummary[]> {
    return (await this.docs.findBySlugs(tenantId, slugs, em)).map((s) => ({ slug: s.slug, title: s.title }));
  }

  /** Opens sections to a user inside the caller's transaction; returns the slugs that exist. */
  grant(em: EntityManager, tenantId: string, userId: string, slugs: string[]): Promise<string[]> {
    return this.docs.grant(em, tenantId, userId, slugs);
  }

  /** The sections opened to a user, for the Web UI's /docs. */
  sectionsOf(tenantId: string, userId: string): Promise<SectionSummary[]> {
    return this.docs.sectionsOf(tenantId, userId);
  }

  /** One section with its Markdown body, or `null` when it is not opened to the user. */
  sectionFor(tenantId: string, userId: string, slug: string): Promise<{ slug: string; title: string; body: string } | null> {
    return this.docs.sectionFor(tenantId, userId, slug);
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, section: DocSection, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'doc_section', targetId: section.id, targetName: section.title, details });
  }
}

function notFound(): DocError {
  return new DocError(DocErrorCode.NotFound, 'No such documentation section.');
}
