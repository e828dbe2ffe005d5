import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { InvitationService, type InvitationView } from '@gatehouse/invitations';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateInvitationDto, InvitationQueryDto, ResendInvitationDto } from '../dto/invitations.dto.js';
import { InvitationPage, InvitationResponse } from '../dto/outreach-responses.dto.js';

@AdminController('invitations', 'invitations', 'Invitation links to documentation sections, mailed to one user, single use, expiring.')
export class InvitationsController {
  constructor(private readonly invitations: InvitationService) {}

  @Post()
  @ApiOperation({ summary: 'Invite a user to documentation sections (mails the link)' })
  @ApiJsonBody(CreateInvitationDto, { userId: '3f0c2a52-8c1e-4c8e-9b7a-2f4f5b0e8d11', sections: ['orders-api'], expiresInHours: 168 })
  @ApiProblems(409)
  @RequirePermission('Invitations.Manage')
  @ApiCreatedResponse({ type: InvitationResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateInvitationDto): Promise<InvitationView> {
    return this.invitations.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List invitations (by status, by section)' })
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: InvitationQueryDto): Promise<Page<InvitationView>> {
    return this.invitations.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an invitation' })
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<InvitationView> {
    return this.invitations.get(principal.tenantId, id);
  }

  @Post(':id/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mail a new link (the old one stops working)' })
  @ApiJsonBody(ResendInvitationDto, { expiresInMinutes: 30 })
  @ApiProblems(409)
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
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  @ApiProblems(409)
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: InvitationResponse })
  revoke(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<InvitationView> {
    return this.invitations.revoke(principal.tenantId, principal, id);
  }
}
