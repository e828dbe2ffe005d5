import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type CertificateView, ClientCertificateService } from '@gatehouse/clients';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { AddCertificateDto, CertificateResponse } from '../dto/certificates.dto.js';

/** Certificate credentials of a client (DESIGN §9): the public certificate only, never a key. */
@AdminController('clients', 'clients')
export class ClientCertificatesController {
  constructor(private readonly certificates: ClientCertificateService) {}

  @Post(':clientId/certificates')
  @ApiOperation({ summary: 'Register a certificate credential (the public certificate only)' })
  @ApiJsonBody(AddCertificateDto, { certificate: '-----BEGIN CERTIFICATE-----\nMIIC…\n-----END CERTIFICATE-----\n', displayName: 'orders-sync 2027' })
  @ApiProblems(409)
  @RequirePermission('Secrets.Manage')
  @ApiCreatedResponse({ type: CertificateResponse })
  add(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: AddCertificateDto): Promise<CertificateView> {
    return this.certificates.add(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/certificates')
  @ApiOperation({ summary: 'List an API client’s certificates' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: [CertificateResponse] })
  list(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<CertificateView[]> {
    return this.certificates.list(principal.tenantId, clientId);
  }

  @Delete(':clientId/certificates/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a certificate credential' })
  @RequirePermission('Secrets.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('keyId') keyId: string): Promise<void> {
    return this.certificates.remove(principal.tenantId, principal, clientId, keyId);
  }
}
