import { join } from 'node:path';
import { ROLE_NAMES } from '@gatehouse/accounts';
import type { AppConfig } from '@gatehouse/config';
import type { DemoSignIn } from '@gatehouse/demo';
import { boxed } from './ready-box.js';

/** What the demo tells: what it made now (if anything) and whom to sign in as. */
export interface DemoSheet {
  filledNow: boolean;
  made: string[];
  /** `undefined`: filled before, and `DATA_DIR/demo.json` is not here. */
  signIns: DemoSignIn[] | undefined;
}

/** The one place demo passwords are shown: stdout, never the logger. */
export function demoBox(config: AppConfig, tenant: string, sheet: DemoSheet): string {
  const file = join(config.dataDir, 'demo.json');
  const lines = [
    sheet.filledNow
      ? `Demo data in tenant "${tenant}", made just now through the same use cases as the console:`
      : `Tenant "${tenant}" holds the demo already; nothing was changed.`,
    ...sheet.made.map((line) => `  - ${line}`),
    '',
    ...(sheet.signIns ? signInLines(config, sheet.signIns, file) : [`The sign-ins were printed when the demo filled this database (${file} is not here).`]),
  ];
  return boxed(lines);
}

function signInLines(config: AppConfig, signIns: DemoSignIn[], file: string): string[] {
  const rows = signIns.map((s) => [ROLE_NAMES[s.role], s.username, s.email, s.password]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return [
    `Sign in at ${config.adminPublicUrl}/console/login with a username and its password:`,
    ...rows.map((row) => `  ${row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ')}`),
    `(also in ${file}, readable by you only)`,
    'The first sign-in of each asks for a second factor: scan the QR code with an authenticator app (or type',
    'the setup key), enter the code it shows, and keep the ten recovery codes. Then the console opens; later',
    'sign-ins ask for the code of the app.',
  ];
}
