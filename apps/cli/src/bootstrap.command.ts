import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '@gatehouse/config';
import { type BootstrapResult, BootstrapService } from '@gatehouse/provisioning';
import type { SigningAlgorithm } from '@gatehouse/tenants';
import { createProvisioningContext } from './provisioning.context.js';

export async function bootstrapTenant(
  config: AppConfig & { databaseUrl: string },
  tenant: string,
  rotateSecret: boolean,
  algorithm?: SigningAlgorithm,
  displayName?: string,
): Promise<BootstrapResult> {
  const context = await createProvisioningContext(config);
  try {
    return await context.get(BootstrapService).bootstrap({ tenant, rotateSecret, algorithm, displayName });
  } finally {
    await context.close();
  }
}

export async function isDatabaseEmpty(config: AppConfig & { databaseUrl: string }): Promise<boolean> {
  const context = await createProvisioningContext(config);
  try {
    return await context.get(BootstrapService).isDatabaseEmpty();
  } finally {
    await context.close();
  }
}

/** The one place a bootstrap secret is shown: on stdout, once, never through the logger. */
export function printBootstrap(result: BootstrapResult, json: boolean): string {
  if (json) return `${JSON.stringify(result, null, 2)}\n`;
  const lines = [
    `tenant:          ${result.tenant} (${result.tenantId})${result.tenantCreated ? ' — created' : ''}`,
    `token endpoint:  ${result.tokenEndpoint}`,
    `client id:       ${result.clientId}`,
    result.clientSecret
      ? `client secret:   ${result.clientSecret}   (shown once; store it now)`
      : 'client secret:   unchanged — it was shown when it was issued (--rotate-secret issues a new one)',
    `scope:           ${result.scope}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `DATA_DIR/bootstrap.json`, readable by the owner only. */
export function writeBootstrapFile(dataDir: string, result: BootstrapResult): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'bootstrap.json');
  const { tenant, tenantId, tokenEndpoint, clientId, clientSecret, scope } = result;
  writeFileSync(file, `${JSON.stringify({ tenant, tenantId, tokenEndpoint, clientId, clientSecret, scope }, null, 2)}\n`, {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
  return file;
}
