import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { type CertificateView, ClientCertificateService } from '@gatehouse/clients';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { AddCertificateDto, CertificateResponse } from '../dto/certificates.dto.js';

/** Certificate credentials of a client (DESIGN §9): the public certificate only, never a key. */
@AdminController('clients', 'clients')
export class ClientCertificatesController {
  constructor(private readonly certificates: ClientCertificateService) {}

  @Post(':clientId/certificates')
  @RequirePermission('Secrets.Manage')
  @ApiCreatedResponse({ type: CertificateResponse })
  add(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Body() body: AddCertificateDto): Promise<CertificateView> {
    return this.certificates.add(principal.tenantId, principal, clientId, body);
  }

  @Get(':clientId/certificates')
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: [CertificateResponse] })
  list(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string): Promise<CertificateView[]> {
    return this.certificates.list(principal.tenantId, clientId);
  }

  @Delete(':clientId/certificates/:keyId')
  @HttpCode(204)
  @RequirePermission('Secrets.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('keyId') keyId: string): Promise<void> {
    return this.certificates.remove(principal.tenantId, principal, clientId, keyId);
  }
}
