import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { InvitationService, type InvitationView } from '@gatehouse/invitations';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateInvitationDto, InvitationQueryDto, ResendInvitationDto } from '../dto/invitations.dto.js';
import { InvitationPage, InvitationResponse } from '../dto/outreach-responses.dto.js';

@AdminController('invitations', 'invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationService) {}

  @Post()
  @RequirePermission('Invitations.Manage')
  @ApiCreatedResponse({ type: InvitationResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateInvitationDto): Promise<InvitationView> {
    return this.invitations.create(principal.tenantId, principal, body);
  }

  @Get()
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: InvitationQueryDto): Promise<Page<InvitationView>> {
    return this.invitations.list(principal.tenantId, query);
  }

  @Get(':id')
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<InvitationView> {
    return this.invitations.get(principal.tenantId, id);
  }

  @Post(':id/resend')
  @HttpCode(200)
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationResponse })
  resend(
    @Principal() principal: AdminPrincipal,
    @Param('id') id: string,
    @Body() body: ResendInvitationDto,
  ): Promise<InvitationView> {
    return this.invitations.resend(principal.tenantId, principal, id, body ?? {});
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationResponse })
  revoke(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<InvitationView> {
    return this.invitations.revoke(principal.tenantId, principal, id);
  }
}
