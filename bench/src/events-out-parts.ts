import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import { type AddressInfo, type Server as TcpServer, createServer as createTcpServer } from 'node:net';
import type { DataSource } from 'typeorm';
import { cpuSeconds } from './harness.js';

export interface BenchReceiver {
  server: Server;
  url: string;
  /** The `webhook-id` of every request, in the order they came. */
  ids: string[];
  /** TLS connections opened to it (keep-alive: a few, not one per delivery). */
  connections: () => number;
}

/** A webhook endpoint that answers 204 and counts each event id. */
export async function receiver(cert: { certFile: string; keyFile: string }): Promise<BenchReceiver> {
  const ids: string[] = [];
  let connections = 0;
  const server = createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ids, connections: () => connections };
}

/** A syslog TCP receiver counting octet-counted frames. */
export async function syslogReceiver(): Promise<{ server: TcpServer; port: number; frames: () => number }> {
  let frames = 0;
  const server = createTcpServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (let match = /^(\d+) /.exec(buffered); match && buffered.length >= match[0].length + Number(match[1]); match = /^(\d+) /.exec(buffered)) {
        buffered = buffered.slice(match[0].length + Number(match[1]));
        frames++;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, frames: () => frames };
}

/** What a unit of work (a delivery, an admin write) cost: CPU and statements, which a busy host does not skew as it does rates. */
export interface WorkCost {
  /** CPU of the bench's process (the writer, the two workers and the receivers share it), ms. */
  processCpuMs: number;
  /** CPU of the database backends serving the measured connections, ms. */
  databaseCpuMs: number;
  /** Statements sent on the measured connections. */
  statements: number;
  /** Those statements by their first words, most frequent first (what the round trips are). */
  statementsByKind: Record<string, number>;
}

/**
 * Adds up what the work inside `measure()` spends: the statements of some data sources (through
 * each one's query logger, which TypeORM calls for every statement), the process's CPU and the CPU
 * of the Postgres backends serving their connections (by application name, from /proc).
 */
export class CostMeter {
  private counting = false;
  private readonly kinds = new Map<string, number>();
  private cpuMicros = 0;
  private databaseSeconds = 0;

  constructor(
    private readonly dataSources: DataSource[],
    private readonly applicationNames: string[],
  ) {
    for (const dataSource of dataSources) {
      const logger = dataSource.logger;
      const logQuery = logger.logQuery.bind(logger);
      logger.logQuery = (query, parameters, runner) => {
        if (this.counting) this.kinds.set(kindOf(query), (this.kinds.get(kindOf(query)) ?? 0) + 1);
        logQuery(query, parameters, runner);
      };
    }
  }

  async measure<T>(work: () => Promise<T>): Promise<T> {
    const backends = await this.backendCpu();
    const cpu = process.cpuUsage();
    this.counting = true;
    try {
      return await work();
    } finally {
      this.counting = false;
      const used = process.cpuUsage(cpu);
      this.cpuMicros += used.user + used.system;
      for (const [pid, seconds] of await this.backendCpu()) this.databaseSeconds += seconds - (backends.get(pid) ?? 0);
    }
  }

  /** What was measured so far, per unit of work. */
  per(units: number): WorkCost {
    const statements = [...this.kinds.values()].reduce((sum, n) => sum + n, 0);
    const per = (n: number) => Math.round((n / units) * 1000) / 1000;
    return {
      processCpuMs: per(this.cpuMicros / 1000),
      databaseCpuMs: per(this.databaseSeconds * 1000),
      statements: per(statements),
      statementsByKind: Object.fromEntries([...this.kinds].sort((a, b) => b[1] - a[1]).slice(0, 10)),
    };
  }

  /** CPU seconds so far of each backend serving the connections (a backend that ends in between is not counted). */
  private async backendCpu(): Promise<Map<number, number>> {
    const rows: Array<{ pid: number }> = await this.dataSources[0]!.query(`SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1)`, [
      this.applicationNames,
    ]);
    const seconds = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        seconds.set(pid, cpuSeconds(pid));
      } catch {
        // not on this host's /proc (a remote database): the database's share stays 0
      }
    }
    return seconds;
  }
}

/** A statement's first words, e.g. `UPDATE webhook_deliveries`, `WITH claimed AS (UPDATE webhook_subscriptions`. */
function kindOf(query: string): string {
  return query.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ').replace(/"/g, '');
}
