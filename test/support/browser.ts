import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';

/** Debian's Chromium, started directly (the wrapper script is noisy). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

/** Saves numbered screenshots of a journey under `test-artifacts/<journey>/` (gitignored). */
export class Screenshots {
  private step = 0;
  private readonly dir: string;

  constructor(journey: string) {
    this.dir = join(import.meta.dirname, '..', '..', 'test-artifacts', journey);
    rmSync(this.dir, { recursive: true, force: true }); // only this run's pictures
    mkdirSync(this.dir, { recursive: true });
  }

  async take(page: Page, name: string): Promise<void> {
    this.step += 1;
    await page.screenshot({
      path: join(this.dir, `${String(this.step).padStart(2, '0')}-${name}.png`),
      fullPage: true,
    });
  }
}
