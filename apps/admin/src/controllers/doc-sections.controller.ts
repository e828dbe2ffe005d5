import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { type DocSectionView, DocService } from '@gatehouse/docs';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateDocSectionDto, UpdateDocSectionDto } from '../dto/docs.dto.js';
import { DocSectionPage, DocSectionResponse } from '../dto/outreach-responses.dto.js';
import { PageQueryDto } from '../dto/page.dto.js';

@AdminController('doc-sections', 'doc-sections', 'Private documentation sections (Markdown), opened to users through invitations.')
export class DocSectionsController {
  constructor(private readonly docs: DocService) {}

  @Post()
  @ApiOperation({ summary: 'Create a documentation section' })
  @ApiJsonBody(CreateDocSectionDto, { slug: 'orders-api', title: 'Orders API', body: '# Orders API\n\nHow to call it.' })
  @ApiProblems(409)
  @RequirePermission('Docs.Manage')
  @ApiCreatedResponse({ type: DocSectionResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateDocSectionDto): Promise<DocSectionView> {
    return this.docs.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List documentation sections' })
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: PageQueryDto): Promise<Page<DocSectionView>> {
    return this.docs.list(principal.tenantId, query);
  }

  @Get(':slug')
  @ApiOperation({ summary: 'Read a documentation section' })
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionResponse })
  get(@Principal() principal: AdminPrincipal, @Param('slug') slug: string): Promise<DocSectionView> {
    return this.docs.get(principal.tenantId, slug);
  }

  @Patch(':slug')
  @ApiOperation({ summary: 'Change a section’s title or body' })
  @ApiJsonBody(UpdateDocSectionDto, { title: 'Orders API (v2)' })
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionResponse })
  update(@Principal() principal: AdminPrincipal, @Param('slug') slug: string, @Body() body: UpdateDocSectionDto): Promise<DocSectionView> {
    return this.docs.update(principal.tenantId, principal, slug, body);
  }

  @Delete(':slug')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a documentation section' })
  @RequirePermission('Docs.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('slug') slug: string): Promise<void> {
    return this.docs.remove(principal.tenantId, principal, slug);
  }
}
