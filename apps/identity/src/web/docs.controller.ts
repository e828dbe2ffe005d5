import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DocService } from '@gatehouse/docs';
import { renderSection } from '@gatehouse/views';
import { docsListPage, sectionPage } from './pages/content.pages.js';
import { requireUser } from './web-guard.js';
import { sendPage, viewerOf } from './web-response.js';
import { WebSession } from './web-session.js';
import { notFound } from './web.errors.js';
import { WebErrorFilter } from './web.filter.js';

/** What a section slug can look like; anything else (a NUL, say) cannot name one. */
const SLUG = /^[A-Za-z0-9._-]{1,200}$/;

/** `/docs` and `/docs/{slug}`: the documentation sections opened to the signed-in user. */
@Controller('docs')
@UseFilters(WebErrorFilter)
export class DocsController {
  constructor(
    private readonly web: WebSession,
    private readonly docs: DocService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const principal = requireUser(context, req);
    const sections = await this.docs.sectionsOf(context.tenant.id, principal.userId);
    sendPage(res, 200, {
      title: 'Documentation',
      body: docsListPage(sections),
      viewer: viewerOf(context),
      path: '/docs',
    });
  }

  @Get(':slug')
  async show(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const principal = requireUser(context, req);
    if (!SLUG.test(slug)) throw notFound();
    const section = await this.docs.sectionFor(context.tenant.id, principal.userId, slug);
    if (!section) throw notFound();
    const body = sectionPage(renderSection(section.body, section.title));
    sendPage(res, 200, { title: section.title, body, viewer: viewerOf(context), path: req.path });
  }
}
