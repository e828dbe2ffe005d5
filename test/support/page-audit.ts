import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { Screenshots } from './browser.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is. The script is evaluated through the DevTools protocol, which
 * the page's Content-Security-Policy (no inline script) does not govern, so the page stays as served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
    };
    const scope = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<Result> };
      document: unknown;
    };
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

/** The serious and critical violations only (what a page must not have). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Screenshots at 1280 and 390 px wide, then the axe check at both widths; returns the violations found. */
export async function auditPage(page: Page, shots: Screenshots, name: string): Promise<AxeViolation[]> {
  const found: AxeViolation[] = [];
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shots.take(page, `${name}-${width}`);
    found.push(...(await seriousViolations(page)));
    const overflow = await page.evaluate(() => {
      const root = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
      ).document;
      return root.documentElement.scrollWidth - root.documentElement.clientWidth;
    });
    if (overflow > 0)
      found.push({
        id: 'horizontal-scroll',
        impact: 'serious',
        help: `scrolls ${overflow}px sideways at ${width}px`,
        targets: [],
      });
  }
  await page.setViewportSize(original);
  return found;
}
