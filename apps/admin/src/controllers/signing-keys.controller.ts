import { Body, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type RolloverResult, SigningKeyAdminService, type SigningKeyList } from '@gatehouse/tokens';
import { AdminController, ApiJsonBody } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { RolloverResponse, RolloverSigningKeyDto, SigningKeyListResponse } from '../dto/signing-keys.dto.js';

@AdminController('tenant/signing-keys', 'tenant')
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyAdminService) {}

  @Get()
  @ApiOperation({ summary: "List the tenant's token signing keys (never key material)" })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: SigningKeyListResponse })
  list(@Principal() principal: AdminPrincipal): Promise<SigningKeyList> {
    return this.keys.list(principal.tenantId);
  }

  @Post('rollover')
  @RequirePermission('Tenant.Manage')
  @ApiOperation({
    summary: 'Emergency rollover: a new key signs at once',
    description:
      'For the day a key leaks. A fresh key signs from now on; verifiers fetch it on its unknown kid. The previous key stays ' +
      'published until its last token expires, or with revokePrevious leaves the JWKS at once on every replica: every token ' +
      'it signed — this request\'s own token too, if it was one — stops verifying.',
  })
  @ApiJsonBody(RolloverSigningKeyDto, { revokePrevious: true })
  @ApiCreatedResponse({ type: RolloverResponse })
  rollover(@Principal() principal: AdminPrincipal, @Body() body: RolloverSigningKeyDto): Promise<RolloverResult> {
    return this.keys.rollover(principal.tenantId, principal, body);
  }
}
