import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import type { Page } from '@gatehouse/database';
import { ClientLimitsService, type ClientState, ClientService, type ClientView, type IssuedSecret, type SecretView } from '@gatehouse/clients';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ClientPage, ClientResponse, IssuedSecretResponse, ScopesResponse, SecretResponse } from '../dto/responses.dto.js';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { ClientQueryDto, CreateClientDto, IssueSecretDto, SetScopesDto } from '../dto/clients.dto.js';
import { SetOrganisationDto } from '../dto/organisations.dto.js';
import { UpdateClientDto } from '../dto/client-limits.dto.js';

@AdminController('clients', 'clients', 'API clients of the client credentials grant: state, granted scopes and secrets. An operator client (owned by a staff member) is its owner’s and the Administrators’ alone.')
export class ClientsController {
  constructor(
    private readonly clients: ClientService,
    private readonly limits: ClientLimitsService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an API client' })
  @ApiJsonBody(CreateClientDto, { displayName: 'Orders sync', contactEmail: 'ops@partner.example' })
  @RequirePermission('Clients.Manage')
  @ApiCreatedResponse({ type: ClientResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateClientDto): Promise<ClientView> {
    return this.clients.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List API clients (cursor paging, filters)' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ClientPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: ClientQueryDto): Promise<Page<ClientView>> {
    return this.clients.list(principal.tenantId, query);
  }

  @Get(':clientId')
  @ApiOperation({ summary: 'Read an API client' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ClientResponse })
  get(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.get(principal.tenantId, clientId);
  }

  @Patch(':clientId')
  @ApiOperation({ summary: 'Limit where an API client’s token requests may come from and how many tokens it gets per hour' })
  @ApiJsonBody(UpdateClientDto, { allowedSourceRanges: ['203.0.113.0/24', '2001:db8::/32'], tokensPerHour: 3600 })
  @RequirePermission('Scopes.Assign')
  @ApiOkResponse({ type: ClientResponse })
  update(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: UpdateClientDto): Promise<ClientView> {
    return this.limits.update(principal.tenantId, principal, clientId, body);
  }

  @Post(':clientId/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable an API client (its next token request fails)' })
  @RequirePermission('Clients.Manage')
  @ApiOkResponse({ type: ClientResponse })
  disable(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.disable(principal.tenantId, principal, clientId);
  }

  @Post(':clientId/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled API client' })
  @RequirePermission('Clients.Manage')
  @ApiOkResponse({ type: ClientResponse })
  enable(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.enable(principal.tenantId, principal, clientId);
  }

  @Put(':clientId/organisation')
  @RequirePermission('Clients.Manage')
  @ApiOperation({
    summary: 'Put the client into a partner organisation, or out of its one with null',
    description: 'Its own operation (not a field of a client PATCH): belonging to a partner is the contact person\'s call, network limits are the IT department\'s.',
  })
  @ApiJsonBody(SetOrganisationDto, { organisationId: '0b7f3c1e-5d7a-4a57-9a43-8f3c1b2d4e5f' })
  @ApiProblems(409)
  @ApiOkResponse({ type: ClientResponse })
  setOrganisation(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: SetOrganisationDto): Promise<ClientView> {
    return this.clients.setOrganisation(principal.tenantId, principal, clientId, body.organisationId);
  }

  @Put(':clientId/scopes')
  @ApiOperation({ summary: 'Set the scopes granted to an API client' })
  @ApiJsonBody(SetScopesDto, { scopes: ['api://orders/Orders.Read'] })
  @RequirePermission('Scopes.Assign')
  @ApiOkResponse({ type: ScopesResponse })
  setScopes(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Body() body: SetScopesDto,
  ): Promise<{ scopes: string[]; state: ClientState }> {
    return this.clients.setScopes(principal.tenantId, principal, clientId, body.scopes);
  }

  @Post(':clientId/secrets')
  @ApiOperation({ summary: 'Issue a secret (its value is in this answer only)' })
  @ApiJsonBody(IssueSecretDto, { displayName: 'production', expiresInDays: 180 })
  @RequirePermission('Secrets.Manage')
  @ApiCreatedResponse({ type: IssuedSecretResponse })
  issueSecret(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: IssueSecretDto): Promise<IssuedSecret> {
    return this.clients.issueSecret(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/secrets')
  @ApiOperation({ summary: 'List an API client’s secrets (never a value)' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: [SecretResponse] })
  listSecrets(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<SecretView[]> {
    return this.clients.listSecrets(principal.tenantId, clientId);
  }

  @Delete(':clientId/secrets/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a secret' })
  @RequirePermission('Secrets.Manage')
  @ApiNoContentResponse()
  revokeSecret(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('keyId') keyId: string): Promise<void> {
    return this.clients.revokeSecret(principal.tenantId, principal, clientId, keyId);
  }
}
