import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { TenantSettingsService } from '@gatehouse/provisioning';
import { type RolloverResult, SigningKeyAdminService } from '@gatehouse/tokens';
import { html } from '@gatehouse/views';
import { fieldList } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { keyList, rolloverConfirmation } from './keys.pages.js';

/**
 * The Signing keys page (Administrators, `Tenant.Manage`): the tenant's keys and the emergency
 * rollover — the same use case as `POST /admin/v1/tenant/signing-keys/rollover` and
 * `keys rollover`, behind a fresh second factor.
 */
@Injectable()
export class KeysPresenter {
  constructor(
    private readonly keys: SigningKeyAdminService,
    private readonly settings: TenantSettingsService,
  ) {}

  async list(who: ConsolePrincipal): Promise<ConsoleView> {
    const { keys } = await this.keys.list(who.tenantId);
    return {
      title: 'Signing keys',
      lead: "The keys that sign this tenant's access tokens. A new key is rolled in every 30 days by itself; roll one over now if a key may have leaked.",
      action: html`<a class="button" href="${who.base}/keys/rollover">Roll over the key</a>`,
      body: keyList(keys),
    };
  }

  async confirmRollover(who: ConsolePrincipal): Promise<ConsoleView> {
    const [{ keys }, tenant] = await Promise.all([this.keys.list(who.tenantId), this.settings.get(who.tenantId)]);
    return {
      title: 'Roll over the signing key?',
      breadcrumbs: [{ label: 'Signing keys', href: `${who.base}/keys` }, { label: 'Roll over' }],
      body: rolloverConfirmation({
        base: who.base,
        csrf: who.csrfToken,
        active: keys.find((key) => key.status === 'active') ?? null,
        algorithm: tenant.signingAlgorithm,
      }),
    };
  }

  async rollover(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const revokePrevious = fieldList(req, 'revokePrevious').includes('yes');
    const result = await this.keys.rollover(who.tenantId, who, { revokePrevious });
    return { redirect: `${who.base}/keys`, flash: { kind: 'success', text: rolloverMessage(result) } };
  }
}

function rolloverMessage(result: RolloverResult): string {
  const signs = `Key ${result.kid} signs this tenant's tokens from now on.`;
  if (!result.previous) return signs;
  return result.revokedPrevious
    ? `${signs} The previous key ${result.previous.kid} is revoked: tokens it signed no longer verify, and clients get new ones at their next token request.`
    : `${signs} The previous key ${result.previous.kid} stays in the JWKS until its last token expires.`;
}
