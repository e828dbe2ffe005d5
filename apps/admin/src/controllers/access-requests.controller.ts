import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestService, type AccessRequestView } from '@gatehouse/requests';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { AccessRequestPage, AccessRequestResponse } from '../dto/access-request-responses.dto.js';
import {
  AccessRequestQueryDto,
  ApproveAccessRequestDto,
  FileAccessRequestDto,
  RejectAccessRequestDto,
} from '../dto/access-requests.dto.js';

/** A JSON body with an example for the documentation. */
function example(type: new () => object, value: Record<string, unknown>) {
  return { type, examples: { example: { summary: 'A typical body', value } } };
}

@AdminController('access-requests', 'access-requests')
export class AccessRequestsController {
  constructor(
    private readonly requests: AccessRequestService,
    private readonly decisions: AccessDecisionService,
  ) {}

  @Post()
  @RequirePermission('Requests.Decide')
  @ApiOperation({ summary: 'File an access request for someone (it starts submitted; contact persons are told)' })
  @ApiBody(
    example(FileAccessRequestDto, {
      requesterName: 'Pat Partner',
      requesterEmail: 'pat@partner.example',
      organisation: 'Partner Ltd',
      account: { documentation: 'The Orders API guide', reason: 'I build our integration.' },
      api: { systemName: 'Orders sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads new orders.' },
    }),
  )
  @ApiCreatedResponse({ type: AccessRequestResponse })
  file(@Principal() principal: AdminPrincipal, @Body() body: FileAccessRequestDto): Promise<AccessRequestView> {
    return this.requests.file(principal.tenantId, principal, body);
  }

  @Get()
  @RequirePermission('Requests.Read')
  @ApiOperation({ summary: 'List access requests, oldest first, optionally by status' })
  @ApiOkResponse({ type: AccessRequestPage })
  list(
    @Principal() principal: AdminPrincipal,
    @Query() query: AccessRequestQueryDto,
  ): Promise<Page<AccessRequestView>> {
    return this.requests.list(principal.tenantId, query);
  }

  @Get(':id')
  @RequirePermission('Requests.Read')
  @ApiOperation({ summary: 'One access request with what it produced (user, client, invitation)' })
  @ApiOkResponse({ type: AccessRequestResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<AccessRequestView> {
    return this.requests.get(principal.tenantId, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @RequirePermission('Requests.Decide')
  @ApiOperation({
    summary:
      'Approve: creates the user (activation link, invitation to the sections) and/or the client awaiting scopes',
  })
  @ApiBody(example(ApproveAccessRequestDto, { note: 'Welcome aboard.', sections: ['orders-api'], expiresInHours: 168 }))
  @ApiOkResponse({ type: AccessRequestResponse })
  approve(
    @Principal() principal: AdminPrincipal,
    @Param('id') id: string,
    @Body() body: ApproveAccessRequestDto,
  ): Promise<AccessRequestView> {
    return this.decisions.approve(principal.tenantId, principal, id, body);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @RequirePermission('Requests.Decide')
  @ApiOperation({ summary: 'Reject with a note, which is mailed to the requester' })
  @ApiBody(example(RejectAccessRequestDto, { note: 'Please ask through your account manager.' }))
  @ApiOkResponse({ type: AccessRequestResponse })
  reject(
    @Principal() principal: AdminPrincipal,
    @Param('id') id: string,
    @Body() body: RejectAccessRequestDto,
  ): Promise<AccessRequestView> {
    return this.decisions.reject(principal.tenantId, principal, id, body);
  }
}
