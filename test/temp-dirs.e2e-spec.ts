import { basename, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { scratch } from './support/compose-topology.js';
import { testConfig } from './support/test-config.js';

/** `npm test` leaves nothing in the system's temporary directory (the global teardown removes the run's folder). */
describe('temporary folders of a test run', () => {
  it('all live under the run folder that the global teardown removes', () => {
    expect(basename(tmpdir())).toMatch(/^gatehouse-run-/);
    expect(dirname(testConfig('postgres://x@localhost/x').dataDir)).toBe(tmpdir());
    expect(dirname(scratch('probe'))).toBe(tmpdir());
  });
});
