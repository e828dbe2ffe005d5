import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import type { Page } from '@gatehouse/database';
import { type ClientState, ClientService, type ClientView, type IssuedSecret, type SecretView } from '@gatehouse/clients';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { ClientPage, ClientResponse, IssuedSecretResponse, ScopesResponse, SecretResponse } from '../dto/responses.dto.js';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { ClientQueryDto, CreateClientDto, IssueSecretDto, SetScopesDto } from '../dto/clients.dto.js';

@AdminController('clients', 'clients')
export class ClientsController {
  constructor(private readonly clients: ClientService) {}

  @Post()
  @RequirePermission('Clients.Manage')
  @ApiCreatedResponse({ type: ClientResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateClientDto): Promise<ClientView> {
    return this.clients.create(principal.tenantId, principal, body);
  }

  @Get()
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ClientPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: ClientQueryDto): Promise<Page<ClientView>> {
    return this.clients.list(principal.tenantId, query);
  }

  @Get(':clientId')
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ClientResponse })
  get(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.get(principal.tenantId, clientId);
  }

  @Post(':clientId/disable')
  @HttpCode(200)
  @RequirePermission('Clients.Manage')
  @ApiOkResponse({ type: ClientResponse })
  disable(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.disable(principal.tenantId, principal, clientId);
  }

  @Post(':clientId/enable')
  @HttpCode(200)
  @RequirePermission('Clients.Manage')
  @ApiOkResponse({ type: ClientResponse })
  enable(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<ClientView> {
    return this.clients.enable(principal.tenantId, principal, clientId);
  }

  @Put(':clientId/scopes')
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
  @RequirePermission('Secrets.Manage')
  @ApiCreatedResponse({ type: IssuedSecretResponse })
  issueSecret(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: IssueSecretDto): Promise<IssuedSecret> {
    return this.clients.issueSecret(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/secrets')
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: [SecretResponse] })
  listSecrets(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<SecretView[]> {
    return this.clients.listSecrets(principal.tenantId, clientId);
  }

  @Delete(':clientId/secrets/:keyId')
  @HttpCode(204)
  @RequirePermission('Secrets.Manage')
  @ApiNoContentResponse()
  revokeSecret(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('keyId') keyId: string): Promise<void> {
    return this.clients.revokeSecret(principal.tenantId, principal, clientId, keyId);
  }
}
