import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { type DocSectionView, DocService } from '@gatehouse/docs';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateDocSectionDto, UpdateDocSectionDto } from '../dto/docs.dto.js';
import { DocSectionPage, DocSectionResponse } from '../dto/outreach-responses.dto.js';
import { PageQueryDto } from '../dto/page.dto.js';

@AdminController('doc-sections', 'doc-sections')
export class DocSectionsController {
  constructor(private readonly docs: DocService) {}

  @Post()
  @RequirePermission('Docs.Manage')
  @ApiCreatedResponse({ type: DocSectionResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateDocSectionDto): Promise<DocSectionView> {
    return this.docs.create(principal.tenantId, principal, body);
  }

  @Get()
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: PageQueryDto): Promise<Page<DocSectionView>> {
    return this.docs.list(principal.tenantId, query);
  }

  @Get(':slug')
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionResponse })
  get(@Principal() principal: AdminPrincipal, @Param('slug') slug: string): Promise<DocSectionView> {
    return this.docs.get(principal.tenantId, slug);
  }

  @Patch(':slug')
  @RequirePermission('Docs.Manage')
  @ApiOkResponse({ type: DocSectionResponse })
  update(@Principal() principal: AdminPrincipal, @Param('slug') slug: string, @Body() body: UpdateDocSectionDto): Promise<DocSectionView> {
    return this.docs.update(principal.tenantId, principal, slug, body);
  }

  @Delete(':slug')
  @HttpCode(204)
  @RequirePermission('Docs.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('slug') slug: string): Promise<void> {
    return this.docs.remove(principal.tenantId, principal, slug);
  }
}
