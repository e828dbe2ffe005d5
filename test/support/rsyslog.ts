import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RSYSLOGD = '/usr/sbin/rsyslogd';

/** One line rsyslog wrote, split into RFC 5424's fields. */
export interface SyslogLine {
  priority: number;
  version: number;
  timestamp: string;
  host: string;
  app: string;
  procId: string;
  msgId: string;
  structuredData: string;
  message: string;
}

const RFC5424 = /^<(\d{1,3})>(\d) (\S+) (\S+) (\S+) (\S+) (\S+) (-|\[.*?\]) ?(.*)$/;

export function parseSyslogLine(line: string): SyslogLine | undefined {
  const m = RFC5424.exec(line);
  if (!m) return undefined;
  return { priority: Number(m[1]), version: Number(m[2]), timestamp: m[3]!, host: m[4]!, app: m[5]!, procId: m[6]!, msgId: m[7]!, structuredData: m[8]!, message: m[9]! };
}

/**
 * Debian's rsyslogd as a real syslog receiver: imtcp on a loopback port (octet-counted framing is
 * on by default), every message written to a file in RFC 5424 form, in the foreground, with its
 * own configuration and pid file (the system's rsyslog is left alone).
 */
export class Rsyslog {
  private process: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'rsyslog-'));
  readonly file = join(this.dir, 'audit.log');

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const conf = join(this.dir, 'rsyslog.conf');
    writeFileSync(
      conf,
      [
        `global(workDirectory="${this.dir}")`,
        'module(load="imtcp")',
        `input(type="imtcp" address="127.0.0.1" port="${this.port}" ruleset="audit")`,
        `ruleset(name="audit") { action(type="omfile" file="${this.file}" template="RSYSLOG_SyslogProtocol23Format") }`,
        '',
      ].join('\n'),
    );
    this.process = spawn(RSYSLOGD, ['-n', '-f', conf, '-i', join(this.dir, 'rsyslogd.pid')], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(await this.listening()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** The RFC 5424 lines written so far (rsyslog writes asynchronously: poll). */
  lines(): SyslogLine[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8').split('\n').filter(Boolean).map((line) => parseSyslogLine(line) ?? ({ message: line } as SyslogLine));
  }

  private listening(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port: this.port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  }
}
