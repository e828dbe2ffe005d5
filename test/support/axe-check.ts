import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown[] }>;
}

/** Viewport widths every page is looked at: a desktop and a narrow phone. */
export const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

/**
 * The serious and critical axe-core violations of the page as it is now, one line each. The page's
 * context needs `bypassCSP: true`: the pages' CSP rightly refuses the injected script otherwise.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const scope = globalThis as unknown as { document: unknown; axe: { run: (context: unknown) => Promise<{ violations: AxeViolation[] }> } };
    return (await scope.axe.run(scope.document)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
}
