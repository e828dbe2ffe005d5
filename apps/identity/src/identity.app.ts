import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { configureHttpApp, ensureDevCertificate } from '@gatehouse/http';
import { LastUseRecorder } from '@gatehouse/tokens';
import { IdentityModule, type IdentityModuleOptions } from './identity.module.js';
import { preloadTokenCache } from './oauth/token-cache-preload.js';
import { installTokenFastPath } from './oauth/token-fast-path.js';
import { warmUpTokenPath } from './oauth/token-warm-up.js';

export interface IdentityAppOptions extends IdentityModuleOptions {
  /** Serve https with this certificate and key (PEM); tests pass them directly. */
  https?: { cert: string | Buffer; key: string | Buffer };
}

/** Builds the identity app with everything production has; `main.ts` and tests both call this. */
export async function createIdentityApp(options: IdentityAppOptions): Promise<NestExpressApplication> {
  const { https, ...moduleOptions } = options;
  const app = await NestFactory.create<NestExpressApplication>(IdentityModule.register(moduleOptions), {
    bufferLogs: true,
    bodyParser: false,
    httpsOptions: https ?? httpsFromConfig(options.config),
  });
  configureHttpApp(app, options.config);
  await app.init();
  installTokenFastPath(app);
  await preloadTokenCache(app, options.config.tokenPreloadClients);
  await warmUpTokenPath(app, options.config.tokenWarmUpRequests);
  // The warm-up's clients exist in memory only: their uses are nobody's last use.
  app.get(LastUseRecorder).discard();
  return app;
}

/** https when TLS_CERT_FILE and TLS_KEY_FILE are set, or with the development certificate when DEV_TLS=1; else plain http. */
export function httpsFromConfig(config: AppConfig): { cert: Buffer; key: Buffer } | undefined {
  const files =
    config.tlsCertFile && config.tlsKeyFile
      ? { certFile: config.tlsCertFile, keyFile: config.tlsKeyFile }
      : config.devTls
        ? ensureDevCertificate(config.dataDir)
        : undefined;
  if (!files) return undefined;
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
}
