import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '@gatehouse/config';
import { tuneHeapForServing } from '@gatehouse/http';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { benchConfig } from './bench-config.js';
import { answerMemoryRequests } from './memory-report.js';
import { announceReady, exitOnSignal, requiredEnv } from './protocol.js';

/**
 * The real identity app, as production builds it (request logs at info go to stdout, which the
 * benchmark sends to a file). GATEHOUSE_LOG_LEVEL overrides the level for the attribution experiment,
 * TOKEN_WARMUP_REQUESTS the start-up warm-up for the miss experiment.
 */
tuneHeapForServing(); // as runApps does in production
const port = Number(requiredEnv('PORT'));
const config = {
  ...benchConfig({
    databaseUrl: requiredEnv('DATABASE_URL'),
    publicUrl: `http://127.0.0.1:${port}`,
    pepper: Buffer.from(requiredEnv('PEPPER'), 'hex'),
    kek: Buffer.from(requiredEnv('KEK'), 'hex'),
  }),
  ...(process.env.GATEHOUSE_LOG_LEVEL ? { logLevel: process.env.GATEHOUSE_LOG_LEVEL as AppConfig['logLevel'] } : {}),
  ...(process.env.TOKEN_WARMUP_REQUESTS ? { tokenWarmUpRequests: Number(process.env.TOKEN_WARMUP_REQUESTS) } : {}),
  ...(process.env.TOKEN_PRELOAD_CLIENTS ? { tokenPreloadClients: Number(process.env.TOKEN_PRELOAD_CLIENTS) } : {}),
  // The last-use phase's "off" server (DESIGN §12: tracking on is the default).
  ...(process.env.LAST_USE_TRACKING === '0' ? { lastUseTracking: false } : {}),
  // The federated-assertion phase's issuer: on loopback, with a certificate of its own.
  ...(process.env.FEDERATION_PRIVATE_ISSUERS ? { federationPrivateIssuers: process.env.FEDERATION_PRIVATE_ISSUERS.split(',') } : {}),
  ...(process.env.OUTBOUND_CA_FILE ? { outboundCa: readFileSync(process.env.OUTBOUND_CA_FILE, 'utf8') } : {}),
};
const app = await createIdentityApp({ config });
await app.listen(port, '127.0.0.1');
announceReady();
answerMemoryRequests();
exitOnSignal(() => app.close());
