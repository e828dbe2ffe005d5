import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { HandoverResendService, HandoverService, type HandoverView } from '@gatehouse/handovers';
import { AdminController, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { HandoverResponse } from '../dto/access-request-responses.dto.js';
import { CreateHandoverDto, ResendHandoverDto } from '../dto/access-requests.dto.js';

@AdminController('clients', 'handovers')
export class ClientHandoversController {
  constructor(private readonly handovers: HandoverService) {}

  @Post(':clientId/handovers')
  @RequirePermission('Secrets.Manage')
  @ApiProblems(409)
  @ApiOperation({
    summary:
      'Send credentials by a one-time link: the recipient reveals a secret created at that moment, seen by nobody else',
  })
  @ApiBody({
    type: CreateHandoverDto,
    examples: {
      example: { summary: 'A typical body', value: { recipientEmail: 'ops@partner.example', expiresInHours: 72 } },
    },
  })
  @ApiCreatedResponse({ type: HandoverResponse })
  create(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Body() body: CreateHandoverDto,
  ): Promise<HandoverView> {
    return this.handovers.create(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/handovers')
  @RequirePermission('Clients.Read')
  @ApiOperation({ summary: "The client's handovers, newest first (reveal time and source address; never a secret)" })
  @ApiOkResponse({ type: [HandoverResponse] })
  list(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<HandoverView[]> {
    return this.handovers.list(principal.tenantId, clientId);
  }
}

@AdminController('handovers', 'handovers')
export class HandoversController {
  constructor(
    private readonly handovers: HandoverService,
    private readonly resends: HandoverResendService,
  ) {}

  @Post(':id/revoke')
  @HttpCode(200)
  @RequirePermission('Secrets.Manage')
  @ApiProblems(409)
  @ApiOperation({ summary: 'Revoke: a pending link dies; after the reveal, the secret it created is revoked' })
  @ApiOkResponse({ type: HandoverResponse })
  revoke(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<HandoverView> {
    return this.handovers.revoke(principal.tenantId, principal, id);
  }

  @Post(':id/resend')
  @RequirePermission('Secrets.Manage')
  @ApiProblems(409)
  @ApiOperation({
    summary: 'Send an expired handover again: a new one-time link to the same recipient (no secret was ever created by the old one)',
  })
  @ApiBody({
    type: ResendHandoverDto,
    required: false,
    examples: { example: { summary: 'A day to reveal it', value: { expiresInHours: 24 } } },
  })
  @ApiCreatedResponse({ type: HandoverResponse })
  resend(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: ResendHandoverDto): Promise<HandoverView> {
    return this.resends.resend(principal.tenantId, principal, id, body);
  }
}
