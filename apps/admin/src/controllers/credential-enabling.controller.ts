import { HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type CertificateView, CredentialEnablingService, type FederatedCredentialView, type SecretView } from '@gatehouse/clients';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CertificateResponse } from '../dto/certificates.dto.js';
import { FederatedCredentialResponse } from '../dto/federated-credentials.dto.js';
import { SecretResponse } from '../dto/responses.dto.js';

const DESCRIPTION =
  'Undoes the stale-credential job’s disabling (the credential policy’s disableStaleCredentials): token requests with it work again at once, and its stale period counts afresh from now. One that is not disabled is answered as it is. Audited as client.credential.enabled.';

/** Stale credentials the worker disabled, enabled again (DESIGN §12): each kind where the others address it. */
@AdminController('clients', 'clients')
export class CredentialEnablingController {
  constructor(private readonly enabling: CredentialEnablingService) {}

  @Post(':clientId/secrets/:keyId/enable')
  @HttpCode(200)
  @RequirePermission('Secrets.Manage')
  @ApiOperation({ summary: 'Enable a secret disabled as stale', description: DESCRIPTION })
  @ApiOkResponse({ type: SecretResponse })
  enableSecret(@Principal() principal: AdminPrincipal, @Param('clientId') clientId: string, @Param('keyId') keyId: string): Promise<SecretView> {
    return this.enabling.enableSecret(principal.tenantId, principal, clientId, keyId);
  }

  @Post(':clientId/certificates/:keyId/enable')
  @HttpCode(200)
  @RequirePermission('Secrets.Manage')
  @ApiOperation({ summary: 'Enable a certificate credential disabled as stale', description: DESCRIPTION })
  @ApiOkResponse({ type: CertificateResponse })
  enableCertificate(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Param('keyId') keyId: string,
  ): Promise<CertificateView> {
    return this.enabling.enableCertificate(principal.tenantId, principal, clientId, keyId);
  }

  @Post(':clientId/federated-credentials/:id/enable')
  @HttpCode(200)
  @RequirePermission('Secrets.Manage')
  @ApiOperation({ summary: 'Enable a federated credential disabled as stale', description: DESCRIPTION })
  @ApiOkResponse({ type: FederatedCredentialResponse })
  enableFederated(
    @Principal() principal: AdminPrincipal,
    @Param('clientId') clientId: string,
    @Param('id') id: string,
  ): Promise<FederatedCredentialView> {
    return this.enabling.enableFederated(principal.tenantId, principal, clientId, id);
  }
}
