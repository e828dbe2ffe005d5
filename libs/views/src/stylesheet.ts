import { readFileSync } from 'node:fs';

/** The one stylesheet of every page Gatehouse serves (Web UI and console); no inline styles anywhere. */
export const STYLESHEET = readFileSync(new URL('./assets/gatehouse.css', import.meta.url), 'utf8');
