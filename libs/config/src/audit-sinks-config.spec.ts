import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './app-config.js';
import { loadConfig } from './load-config.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'gatehouse-config-'));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('audit streaming settings (§13)', () => {
  it('are off unless set, and read as given', () => {
    expect(loadConfig({ DATA_DIR })).toMatchObject({ auditSyslogUrl: undefined, auditHecUrl: undefined, auditHecToken: undefined });
    const config = loadConfig({
      DATA_DIR,
      AUDIT_SYSLOG_URL: 'tls://siem.example:6514',
      AUDIT_HEC_URL: 'https://splunk.example:8088/services/collector/event',
      AUDIT_HEC_TOKEN: '11111111-2222-3333-4444-555555555555',
    });
    expect(config.auditSyslogUrl).toBe('tls://siem.example:6514');
    expect(config.auditHecUrl).toBe('https://splunk.example:8088/services/collector/event');
    expect(config.auditHecToken).toBe('11111111-2222-3333-4444-555555555555');
  });

  it('stop the process with a message naming the variable when malformed', () => {
    expect(problemsOf({ AUDIT_SYSLOG_URL: 'udp://siem.example:514' })).toEqual([
      'AUDIT_SYSLOG_URL must be tcp://host:port or tls://host:port (got "udp://siem.example:514")',
    ]);
    expect(problemsOf({ AUDIT_SYSLOG_URL: 'tcp://siem.example' })[0]).toMatch(/^AUDIT_SYSLOG_URL must be/);
    expect(problemsOf({ AUDIT_HEC_URL: 'http://splunk.example:8088/services/collector' })).toEqual([
      'AUDIT_HEC_URL must be an https:// URL without credentials (got "http://splunk.example:8088/services/collector")',
      'AUDIT_HEC_URL and AUDIT_HEC_TOKEN must be set together',
    ]);
    expect(problemsOf({ AUDIT_HEC_TOKEN: 'abc' })).toEqual(['AUDIT_HEC_URL and AUDIT_HEC_TOKEN must be set together']);
  });
});
