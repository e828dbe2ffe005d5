import { Injectable } from '@nestjs/common';

/** A tenant's stale-credential settings (DESIGN §12, part of the tenant credential policy). */
export interface StaleSettings {
  /** A credential no token was issued with for this many days is stale. */
  staleCredentialDays: number;
  /** Disable stale credentials as well as report them. */
  disableStaleCredentials: boolean;
}

export const DEFAULT_STALE_SETTINGS: StaleSettings = Object.freeze({ staleCredentialDays: 90, disableStaleCredentials: false });

/**
 * Where the stale-credential job reads a tenant's settings. The tenant credential policy
 * (`GET|PUT /credential-policy`) provides them when it exists, by binding its own implementation
 * to this class in ClientsModule; until then every tenant has the defaults (90 days, report only).
 */
export abstract class StaleSettingsSource {
  abstract forTenant(tenantId: string): Promise<StaleSettings>;
}

@Injectable()
export class DefaultStaleSettings extends StaleSettingsSource {
  forTenant(): Promise<StaleSettings> {
    return Promise.resolve(DEFAULT_STALE_SETTINGS);
  }
}
