import { Injectable } from '@nestjs/common';
import { CredentialPolicyService } from '../policy/credential-policy.service.js';
import { type StaleSettings, StaleSettingsSource } from './stale-settings.js';

/** The stale-credential settings of a tenant, as its credential policy holds them (`GET|PUT /credential-policy`). */
@Injectable()
export class PolicyStaleSettings extends StaleSettingsSource {
  constructor(private readonly policies: CredentialPolicyService) {
    super();
  }

  async forTenant(tenantId: string): Promise<StaleSettings> {
    const policy = await this.policies.policyOf(tenantId);
    return { staleCredentialDays: policy.staleCredentialDays, disableStaleCredentials: policy.disableStaleCredentials };
  }
}
