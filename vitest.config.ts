import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

/** The benchmark's smoke run: its own CI step and `npm run bench:smoke` (vitest.bench-smoke.config.ts), not `npm test`. */
export const BENCH_SMOKE = 'test/bench-smoke.e2e-spec.ts';

export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    alias: [{ find: /^@gatehouse\/([a-z-]+)$/, replacement: resolve(import.meta.dirname, 'libs/$1/src/index.ts') }],
  },
  test: {
    include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    exclude: [...configDefaults.exclude, BENCH_SMOKE],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Most of a file's time is waiting (PostgreSQL, a browser, a timer): three files at once keep
    // two cores busy. Each file has its own database from the template, so they do not meet.
    maxWorkers: Number(process.env.TEST_WORKERS) || 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
