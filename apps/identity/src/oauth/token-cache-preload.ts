import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CredentialDirectory } from '@gatehouse/tokens';

/**
 * Reads up to `limit` active clients into the token cache before the app serves
 * (TOKEN_PRELOAD_CLIENTS), so that a replica started under load answers its first requests from
 * memory instead of queueing a read per client. A failure (the database away at start) is logged
 * and the app starts with an empty cache, as it would without a preload.
 */
export async function preloadTokenCache(app: NestExpressApplication, limit: number): Promise<void> {
  if (limit <= 0) return;
  const logger = new Logger('TokenCache');
  const started = performance.now();
  try {
    const stored = await app.get(CredentialDirectory).preloadClients(limit);
    logger.log(`token cache preloaded: ${stored} clients in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    logger.warn(`token cache not preloaded (${(error as Error).message}); clients are read on their first request`);
  }
}
