import type { AppConfig } from '@gatehouse/config';
import { type AppRole, httpRole } from '@gatehouse/http';
import { createIdentityApp } from './identity.app.js';

/** The identity app as a role of a process: on PORT at HOST, drained on SIGTERM (fast path included). */
export function identityRole(config: AppConfig): AppRole {
  return httpRole(
    'identity',
    config,
    config.port,
    (metrics) => createIdentityApp({ config, metrics }),
    (url) => `identity listening on ${url} (public URL ${config.publicUrl})`,
  );
}
