import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export interface CurvePoint {
  clients: number;
  tokensPerSec: number;
  rssMb: number;
}

export interface ListPoint {
  rows: number;
  p99Ms: number;
}

const WIDTH = 1000;
const HEIGHT = 420;
const PANEL = { width: 380, height: 300, top: 60 };

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function ticks(max: number): number[] {
  const step = 10 ** Math.floor(Math.log10(Math.max(1, max)));
  const unit = max / step > 5 ? step * 2 : max / step > 2 ? step : step / 2;
  const out: number[] = [];
  for (let v = 0; v <= max * 1.0001; v += unit) out.push(v);
  return out;
}

/** One panel: a log-scale x axis (counts), one or two series on linear y axes (left, right). */
function panel(
  left: number,
  title: string,
  xs: number[],
  xLabel: string,
  series: Array<{ values: number[]; label: string; color: string; side: 'left' | 'right' }>,
): string {
  const { width, height, top } = PANEL;
  const minX = Math.log10(Math.min(...xs));
  const maxX = Math.log10(Math.max(...xs));
  const x = (v: number) => left + ((Math.log10(v) - minX) / Math.max(1e-9, maxX - minX)) * width;
  const parts: string[] = [
    `<text x="${left}" y="${top - 30}" font-size="16" font-weight="bold">${escape(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="none" stroke="#888"/>`,
  ];
  for (const v of xs) {
    parts.push(`<line x1="${x(v)}" y1="${top + height}" x2="${x(v)}" y2="${top + height + 5}" stroke="#888"/>`);
    parts.push(
      `<text x="${x(v)}" y="${top + height + 20}" font-size="12" text-anchor="middle">${v.toLocaleString('en')}</text>`,
    );
  }
  parts.push(
    `<text x="${left + width / 2}" y="${top + height + 42}" font-size="13" text-anchor="middle">${escape(xLabel)}</text>`,
  );
  series.forEach((s, index) => {
    const max = Math.max(...s.values, 1) * 1.1;
    const y = (v: number) => top + height - (v / max) * height;
    const axisX = s.side === 'left' ? left : left + width;
    for (const t of ticks(max)) {
      const anchor = s.side === 'left' ? 'end' : 'start';
      const dx = s.side === 'left' ? -6 : 6;
      parts.push(
        `<text x="${axisX + dx}" y="${y(t) + 4}" font-size="11" text-anchor="${anchor}" fill="${s.color}">${Math.round(t).toLocaleString('en')}</text>`,
      );
    }
    const points = s.values.map((v, i) => `${x(xs[i]!)},${y(v)}`).join(' ');
    parts.push(`<polyline points="${points}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`);
    for (const [i, v] of s.values.entries())
      parts.push(`<circle cx="${x(xs[i]!)}" cy="${y(v)}" r="4" fill="${s.color}"/>`);
    parts.push(
      `<text x="${left + 10 + index * 200}" y="${top - 10}" font-size="13" fill="${s.color}">■ ${escape(s.label)}</text>`,
    );
  });
  return parts.join('\n');
}

/** The cost curve as SVG: tokens/s and RSS against clients; the users list p99 against rows. */
export function costCurveSvg(curve: CurvePoint[], lists: ListPoint[], caption: string): string {
  const left = panel(
    70,
    'Token endpoint against the number of clients',
    curve.map((p) => p.clients),
    'active clients, requested round robin (log scale)',
    [
      { values: curve.map((p) => p.tokensPerSec), label: 'tokens/s', color: '#1f5fbf', side: 'left' },
      { values: curve.map((p) => p.rssMb), label: 'identity RSS MB', color: '#c0392b', side: 'right' },
    ],
  );
  const right = lists.length
    ? panel(
        WIDTH - PANEL.width - 60,
        'GET /users first page against rows',
        lists.map((p) => p.rows),
        'users in the tenant (log scale)',
        [{ values: lists.map((p) => p.p99Ms), label: 'p99 ms', color: '#27864a', side: 'left' }],
      )
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
${left}
${right}
<text x="70" y="${HEIGHT - 8}" font-size="11" fill="#555">${escape(caption)}</text>
</svg>`;
}

/** Renders the SVG to a PNG with Debian's Chromium (playwright-core), like the console tests. */
export async function writeCostCurvePng(svg: string, file: string): Promise<void> {
  writeFileSync(file.replace(/\.png$/, '.svg'), svg);
  // Chromium's singleton socket path must stay short (the run's nested temporary directory is too long).
  const scratch = mkdtempSync(join('/tmp', 'plot-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    env: { ...process.env, TMPDIR: scratch },
  });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.screenshot({ path: file, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
