import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { OffboardingService, type OrganisationDetail, OrganisationService, type OrganisationView } from '@gatehouse/organisations';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import {
  CreateOrganisationDto,
  OrganisationDetailResponse,
  OrganisationPage,
  OrganisationQueryDto,
  OrganisationResponse,
  UpdateOrganisationDto,
} from '../dto/organisations.dto.js';

/**
 * Partner organisations. Reading needs Users.Read (the page lists people); creating, renaming,
 * offboarding and restoring need Users.Manage (contact persons and Administrators: offboarding
 * disables people and clients, which is the contact person's decision). An organisation that
 * holds a person with a role is offboarded or restored by an Administrator only.
 */
@AdminController(
  'organisations',
  'organisations',
  'Partner organisations: the partner company whose people, clients, access requests and handovers belong together, offboarded in one step when the partnership ends.',
)
export class OrganisationsController {
  constructor(
    private readonly organisations: OrganisationService,
    private readonly offboarding: OffboardingService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an organisation' })
  @ApiJsonBody(CreateOrganisationDto, { name: 'Acme Logistics GmbH' })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiCreatedResponse({ type: OrganisationResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateOrganisationDto): Promise<OrganisationView> {
    return this.organisations.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the tenant\'s organisations, newest first; search by part of the name' })
  @RequirePermission('Users.Read')
  @ApiOkResponse({ type: OrganisationPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: OrganisationQueryDto): Promise<Page<OrganisationView>> {
    return this.organisations.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an organisation with its people, clients, access requests and handovers' })
  @RequirePermission('Users.Read')
  @ApiOkResponse({ type: OrganisationDetailResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<OrganisationDetail> {
    return this.organisations.detail(principal.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename an organisation' })
  @ApiJsonBody(UpdateOrganisationDto, { name: 'Acme Logistics SE' })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: OrganisationResponse })
  update(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: UpdateOrganisationDto): Promise<OrganisationView> {
    return this.organisations.update(principal.tenantId, principal, id, body);
  }

  @Post(':id/offboard')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Offboard: disable its people and clients, revoke pending invitations and handovers, end sessions — in one step; a second call changes nothing',
  })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: OrganisationResponse })
  offboard(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<OrganisationView> {
    return this.offboarding.offboard(principal.tenantId, principal, id);
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore: reverse exactly what the offboarding changed (what was disabled before stays so); a second call changes nothing' })
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: OrganisationResponse })
  restore(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<OrganisationView> {
    return this.offboarding.restore(principal.tenantId, principal, id);
  }
}
