import type { AppConfig } from '@gatehouse/config';
import { type AppRole, httpRole } from '@gatehouse/http';
import { createAdminApp } from './admin.app.js';

/** The admin app as a role of a process: on ADMIN_PORT at HOST, drained on SIGTERM. */
export function adminRole(config: AppConfig): AppRole {
  return httpRole(
    'admin',
    config,
    config.adminPort,
    (metrics) => createAdminApp({ config, metrics }),
    (url) => `admin listening on ${url} (/admin/v1, /admin/docs)`,
  );
}
