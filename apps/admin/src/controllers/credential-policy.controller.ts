import { Body, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CredentialPolicyService, type CredentialPolicyView } from '@gatehouse/clients';
import { AdminController, ApiJsonBody } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CredentialPolicyResponse, PutCredentialPolicyDto } from '../dto/credential-policy.dto.js';

@AdminController(
  'credential-policy',
  'credential-policy',
  "The tenant's credential policy (Entra's app management policy): how long new secrets and certificates may live and which kinds may be added. New credentials outside it are refused from effectiveFrom on; older ones are flagged, never broken.",
)
export class CredentialPolicyController {
  constructor(private readonly policy: CredentialPolicyService) {}

  @Get()
  @ApiOperation({ summary: 'Read the credential policy' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: CredentialPolicyResponse })
  get(@Principal() principal: AdminPrincipal): Promise<CredentialPolicyView> {
    return this.policy.get(principal.tenantId);
  }

  @Put()
  @ApiOperation({ summary: 'Replace the credential policy (fields left out take their defaults)' })
  @ApiJsonBody(PutCredentialPolicyDto, {
    maxSecretLifetimeDays: 180,
    maxCertificateLifetimeDays: 365,
    allowedCredentialKinds: ['certificate', 'federated', 'secret'],
    effectiveFrom: '2026-12-01T00:00:00Z',
    staleCredentialDays: 90,
    disableStaleCredentials: false,
  })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: CredentialPolicyResponse })
  put(@Principal() principal: AdminPrincipal, @Body() body: PutCredentialPolicyDto): Promise<CredentialPolicyView> {
    return this.policy.update(principal.tenantId, principal, body);
  }
}
