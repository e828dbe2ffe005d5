import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { TwoWayPage } from '@gatehouse/database';
import { EmailAdminService, type EmailView } from '@gatehouse/mail';
import { AdminController, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { EmailQueryDto } from '../dto/invitations.dto.js';
import { EmailPage, EmailResponse } from '../dto/outreach-responses.dto.js';

@AdminController('emails', 'emails', 'The mail outbox: every mail Gatehouse sends, with its delivery state.')
export class EmailsController {
  constructor(private readonly emails: EmailAdminService) {}

  @Get()
  @ApiOperation({ summary: 'List outbox mails (by status; oldest or newest first; page on with cursor, back with before)' })
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: EmailPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: EmailQueryDto): Promise<TwoWayPage<EmailView>> {
    return this.emails.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read one outbox mail (never its body: bodies carry live links)' })
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: EmailResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<EmailView> {
    return this.emails.get(principal.tenantId, id);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Queue a failed or abandoned mail again' })
  @ApiProblems(409)
  @RequirePermission('Invitations.Manage')
  @ApiOkResponse({ type: EmailResponse })
  retry(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<EmailView> {
    return this.emails.retry(principal.tenantId, principal, id);
  }
}
