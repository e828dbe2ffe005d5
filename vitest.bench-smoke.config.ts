import { configDefaults, defineConfig } from 'vitest/config';
import base, { BENCH_SMOKE } from './vitest.config.js';

/** `npm run bench:smoke`: the benchmark pipeline end to end at a thousandth of the data (`bench -- --smoke`). */
export default defineConfig({ ...base, test: { ...base.test, include: [BENCH_SMOKE], exclude: configDefaults.exclude } });
