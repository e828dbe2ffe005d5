import { join } from 'node:path';
import type { AppConfig } from '@gatehouse/config';
import type { BootstrapResult } from '@gatehouse/provisioning';
import { printBootstrap } from './bootstrap.command.js';

/**
 * What `npm start` prints once every app is ready, last, so that it stays on screen: where each
 * app is, and on the first start the bootstrap client's credentials (the secret shown once).
 */
/** What a first start created: the bootstrap client and the first Administrator's console invitation. */
export interface Bootstrapped {
  result: BootstrapResult;
  file: string;
  /** The printed invitation (the one-time console activation link). */
  administrator: string;
}

export function readyBox(config: AppConfig, tenant: string, bootstrapped: Bootstrapped | undefined): string {
  const admin = `http://${displayHost(config.host)}:${config.adminPort}`;
  const lines = [
    'Gatehouse is ready.',
    '',
    `token endpoint, Web UI:  ${config.publicUrl}`,
    `console:                 ${config.adminPublicUrl}/console`,
    `admin API:               ${admin}/admin/v1   (OpenAPI: ${admin}/admin/docs)`,
    `metrics, health:         http://${displayHost(config.host)}:${config.managementPort}/metrics`,
    ...(config.dataDirMoved
      ? [
          `data (DATA_DIR):         ${config.dataDir}`,
          `  not ./var: run as root, PostgreSQL runs as "postgres", which cannot enter ${config.dataDirMoved}`,
        ]
      : []),
    '',
    ...(bootstrapped
      ? [
          `Bootstrapped tenant "${tenant}"; these credentials are also in ${bootstrapped.file} (mode 0600):`,
          ...printBootstrap(bootstrapped.result, false).trimEnd().split('\n'),
          '',
          'Console sign-in for the Administrator:',
          ...bootstrapped.administrator.trimEnd().split('\n'),
        ]
      : [`The credentials of tenant "${tenant}" are in ${join(config.dataDir, 'bootstrap.json')}.`]),
    '',
    'Stop with Ctrl-C (SIGTERM or SIGINT: requests in flight finish first).',
  ];
  return boxed(lines);
}

/** Lines in a frame, so that what matters stands out among the log lines above it. */
export function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return `\n${rule}\n${lines.map((line) => `| ${line.padEnd(width)} |`).join('\n')}\n${rule}\n`;
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}
