import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Screenshots } from './browser.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 390, height: 844 };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation. The source is
 * evaluated through the DevTools protocol, which the page's CSP does not govern (no inline script).
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string: the test code is not compiled against the DOM's types.
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`,
  );
  const grave = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(grave, `axe-core on ${where}`).toEqual([]);
}

/** Whether anything makes the page scroll sideways at its current width. */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}

/** The elements sticking out to the right of the viewport (what to fix when a page scrolls sideways). */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().right))
    .slice(0, 5)`);
}

/**
 * The checks every page gets: axe-core and a screenshot at 1280 px, then the same at 390 px, where
 * nothing may scroll sideways. The viewport is wide again afterwards.
 */
export async function checkPage(page: Page, shots: Screenshots, name: string): Promise<void> {
  await page.setViewportSize(WIDE);
  await expectAccessible(page, `${name} at 1280 px`);
  await shots.take(page, `${name}-1280`);
  await page.setViewportSize(NARROW);
  await expectAccessible(page, `${name} at 390 px`);
  expect(await scrollsSideways(page) ? await overflowing(page) : [], `${name} scrolls sideways at 390 px`).toEqual([]);
  await shots.take(page, `${name}-390`);
  await page.setViewportSize(WIDE);
}
