import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { FederatedCredentialService, type FederatedCredentialView } from '@gatehouse/clients';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import {
  AddFederatedCredentialDto,
  FederatedCredentialResponse,
  UpdateFederatedCredentialDto,
} from '../dto/federated-credentials.dto.js';

/**
 * Federated credentials of a client (DESIGN §11): which external tokens — a GitHub Actions job's, a
 * Kubernetes service account's, another tenant's — the client may present instead of a secret.
 */
@AdminController('clients', 'clients')
export class FederatedCredentialsController {
  constructor(private readonly federated: FederatedCredentialService) {}

  @Post(':clientId/federated-credentials')
  @ApiOperation({ summary: 'Trust tokens of an external issuer for this client (workload identity federation)' })
  @ApiJsonBody(AddFederatedCredentialDto, {
    name: 'github-production',
    issuer: 'https://token.actions.githubusercontent.com',
    subject: 'repo:contoso/orders:environment:production',
  })
  @ApiProblems(409)
  @RequirePermission('Secrets.Manage')
  @ApiCreatedResponse({ type: FederatedCredentialResponse })
  add(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Body() body: AddFederatedCredentialDto,
  ): Promise<FederatedCredentialView> {
    return this.federated.add(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/federated-credentials')
  @ApiOperation({ summary: 'List an API client’s federated credentials' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: [FederatedCredentialResponse] })
  list(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<FederatedCredentialView[]> {
    return this.federated.list(principal.tenantId, clientId);
  }

  @Patch(':clientId/federated-credentials/:id')
  @ApiOperation({ summary: 'Change what a federated credential accepts (its name stays)' })
  @ApiJsonBody(UpdateFederatedCredentialDto, {
    claimsMatchingExpression: { value: "claims['sub'] matches 'repo:contoso/orders:ref:refs/heads/*'", languageVersion: 1 },
  })
  @RequirePermission('Secrets.Manage')
  @ApiOkResponse({ type: FederatedCredentialResponse })
  update(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Param('id') id: string,
    @Body() body: UpdateFederatedCredentialDto,
  ): Promise<FederatedCredentialView> {
    return this.federated.update(principal.tenantId, principal, clientId, id, body);
  }

  @Delete(':clientId/federated-credentials/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a federated credential' })
  @RequirePermission('Secrets.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('id') id: string): Promise<void> {
    return this.federated.remove(principal.tenantId, principal, clientId, id);
  }
}
