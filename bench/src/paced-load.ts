import { type Socket, connect } from 'node:net';
import { tokenBody } from './scale-data.js';

export interface PacedResult {
  sent: number;
  ok: number;
  failed: number;
  /** What the failed requests got: a status, `0` for no framed answer (reset, closed, unframed), `unsent` past the deadline. */
  failedBy: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p99 of the requests due in each second of the run, in order (where the latency came from). */
  p99BySecondMs: number[];
  /**
   * p99 of how late the generator itself wrote the requests (written − due), over the run and by
   * second: the part of the latency that is the generator's own (a busy core, a full connection
   * pool), not the server's.
   */
  sendLagP99Ms: number;
  sendLagP99BySecondMs: number[];
  /**
   * Requests that found every connection busy when they fell due: the server held them back (its
   * answers were slower than the connections allow for), and their lateness is the server's.
   */
  waitedForConnection: number;
  /**
   * p99 of the lateness of the other requests, which had a connection free when due: the generator
   * itself was late (not scheduled, or busy with other answers), whatever the server did.
   */
  ownLagP99Ms: number;
  /**
   * p99 (and by second) of the latency with the generator's own lateness left out: from the write
   * for the requests that had a connection free when due, from the due time for the others. What a
   * client on a machine of its own would have seen; `p99Ms` charges the server with both.
   */
  p99FromSendMs: number;
  p99FromSendBySecondMs: number[];
  /** How the generator's sending thread was scheduled, when it ran in a process of its own (paced-load-child.ts). */
  generatorPolicy?: string;
}

/** A run's failures and what they got, e.g. `3 failed of 45490 (503: 2, no answer: 1)`. */
export function failuresText(result: Pick<PacedResult, 'failed' | 'sent' | 'failedBy'>): string {
  const by = Object.entries(result.failedBy).map(([got, count]) => `${got === '0' ? 'no answer' : got}: ${count}`);
  return `${result.failed} failed of ${result.sent} (${by.join(', ')})`;
}

/**
 * What the generator process is given: the load, how long it first warms itself against a sink of
 * its own, and whether its sending thread asks for real-time priority (see paced-load-child.ts).
 */
export type PacedChildOptions = Parameters<typeof pacedLoad>[0] & { selfWarmSeconds?: number; realtime?: boolean };

/**
 * A run whose end is not known in advance (traffic beside a sweep): told when the measured seconds
 * begin, and stopped early once `stop` resolves (requests in flight are still counted).
 */
export interface PacedControl {
  onMeasuring?: () => void;
  stop?: Promise<void>;
}

/**
 * Where every connection's socket reads into: each read is handled before the next one lands, so
 * one buffer serves them all, and a response makes no Buffer (Node's default makes one per read,
 * whose collection the generator's scavenges paid for, counted as the server's latency).
 */
const READS = Buffer.allocUnsafe(64 * 1024);
const EMPTY = Buffer.alloc(0);

/** Values over a run, and the same grouped by the second (from the measured start) they belong to. */
function series() {
  const all: number[] = [];
  const bySecond: number[][] = [];
  return {
    all,
    bySecond,
    add(second: number, value: number) {
      all.push(value);
      (bySecond[second] ??= []).push(value);
    },
  };
}

/** One keep-alive connection that sends a formatted request and reads one response at a time. */
class Connection {
  /** The start of a response that did not arrive in one read (a copy: {@link READS} is reused). */
  private buffered: Buffer = EMPTY;
  private pending: ((status: number) => void) | null = null;
  /** When this connection's last answer was read (or it connected): free since then. */
  idleSince = 0;
  readonly socket: Socket;

  constructor(host: string, port: number) {
    this.socket = connect({
      host,
      port,
      noDelay: true,
      onread: { buffer: READS, callback: (length) => (this.onData(READS.subarray(0, length)), true) },
    });
    this.socket.on('error', () => this.finish(0));
    this.socket.on('close', () => this.finish(0));
  }

  /** `request` in latin1 (a string is written from the stack: no Buffer either). */
  send(request: string, onResponse: (status: number) => void): void {
    this.pending = onResponse;
    this.socket.write(request, 'latin1');
  }

  private onData(chunk: Buffer): void {
    const data = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headerEnd = data.indexOf('\r\n\r\n');
    if (headerEnd < 0) return void (this.buffered = Buffer.from(data));
    const head = data.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.finish(0); // only Content-Length framed answers are expected
    const total = headerEnd + 4 + Number(length[1]);
    if (data.length < total) return void (this.buffered = Buffer.from(data));
    this.buffered = data.length > total ? Buffer.from(data.subarray(total)) : EMPTY;
    this.finish(status);
  }

  private finish(status: number): void {
    const pending = this.pending;
    this.pending = null;
    this.idleSince = performance.now();
    pending?.(status);
  }
}

/**
 * Connections of an open-loop run at `rate` requests a second: each has one request in flight, so
 * together they send at most connections ÷ latency a second, and requests due beyond that wait in
 * the generator. One for every 20 a second (at least 32) lets responses take 20 ms before the
 * generator, not the server, holds requests back: with 32 at 3,600 a second a spell of 10–20 ms
 * responses grew a queue of 380 ms in the generator while the replica's own p99 stayed 6–20 ms
 * (BENCHMARKS.md, the night of 2026-11-25).
 */
export function connectionsFor(rate: number): number {
  return Math.max(32, Math.ceil(rate / 20));
}

/**
 * Open-loop load at a fixed rate: request i is due at start + i / rate and its latency counts from
 * that moment (waiting for a free connection included), so a stalled server is charged for the
 * requests it made wait. Raw sockets, requests written as strings and responses read into one
 * reused buffer keep the generator cheap: its own pauses would count as the server's latency.
 *
 * autocannon's `overallRate` is not used for this: it sends each connection's quota for the second
 * in one burst and "corrects" latencies with a 1 ms expected interval, which gives a p99 of hundreds
 * of milliseconds even for the ceiling server.
 */
export async function pacedLoad(options: {
  url: string;
  body: string;
  rate: number;
  seconds: number;
  /** Sent at the same rate before the measured seconds, not counted: connections and the generator's own code warm up. */
  warmupSeconds?: number;
  /** Default {@link connectionsFor} the rate. */
  connections?: number;
  /** Request i comes from generated client `i % count` of the set `seed` instead of `body` (see scale-data.ts). */
  rotate?: { seed: string; count: number };
}, control: PacedControl = {}): Promise<PacedResult> {
  const url = new URL(options.url);
  const port = Number(url.port || 80);
  const head =
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
    'Connection: keep-alive\r\nContent-Length: ';
  const format = (body: string) => `${head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const fixed = format(options.body);
  const rotate = options.rotate;
  const requestAt = rotate ? (i: number) => format(tokenBody(rotate.seed, i % rotate.count)) : () => fixed;
  const connections = Array.from({ length: options.connections ?? connectionsFor(options.rate) }, () => new Connection(url.hostname, port));
  await Promise.all(connections.map((c) => new Promise((resolve) => c.socket.once('connect', resolve))));
  // Free connections, longest free first: request i takes the one free the longest, so whether any
  // connection was free when it fell due is whether that one was free by then.
  const idle = [...connections];

  const warmup = Math.round(options.rate * (options.warmupSeconds ?? 0));
  let total = warmup + Math.max(1, Math.round(options.rate * options.seconds));
  const latencies = series();
  const lags = series();
  const fromSend = series();
  const ownLags: number[] = [];
  let waitedForConnection = 0;
  const failedBy: Record<string, number> = {};
  // Requests are due in order: those due but not yet sent are the indexes next … dueCount - 1, each
  // formatted when a connection takes it. (A queue of formatted requests with shift() was linear per
  // request once the server fell behind: the generator became the bottleneck and held gigabytes.)
  let dueCount = 0; // requests due so far: 0 … dueCount - 1
  let next = 0;
  let settled = 0;
  const start = performance.now();
  const dueAt = (i: number) => start + (i * 1000) / options.rate;
  const measuredFrom = dueAt(warmup);
  // A server far behind the rate would make the run last without end: past twice its length (and
  // 5 s), nothing more is sent and every request not sent by then counts as failed.
  const deadline = dueAt(total) * 2 - start + 5_000;
  let abandoned = 0;
  let announced = false;

  await new Promise<void>((resolve) => {
    // Sends nothing more: what is due but not sent is dropped from the run.
    const cutOff = () => {
      total = dueCount = next;
      if (settled === total) resolve();
    };
    void control.stop?.then(cutOff);
    const advance = (now: number) => {
      while (dueCount < total && dueAt(dueCount) <= now) dueCount++;
    };
    // Also on every response, not only on the timer's tick: a request due between two ticks would
    // otherwise wait for the next one (≈ 1 ms, up to 2 at p99) with a connection free, charged to the server.
    const dispatch = () => {
      advance(performance.now());
      while (next < dueCount && idle.length > 0) {
        const connection = idle.shift()!;
        if (connection.socket.destroyed) continue;
        const due = dueAt(next);
        const written = performance.now();
        const second = Math.floor((due - measuredFrom) / 1000);
        // From when the server could have had it: its due time if every connection was busy then.
        let from = written;
        if (due >= measuredFrom) {
          const lag = written - due;
          lags.add(second, lag);
          if (connection.idleSince > due) {
            waitedForConnection++;
            from = due;
          } else ownLags.push(lag);
        }
        connection.send(requestAt(next++), (status) => {
          idle.push(connection);
          if (due < measuredFrom) {
            // warm-up: not counted
          } else if (status === 200) {
            const answered = performance.now();
            latencies.add(second, answered - due);
            fromSend.add(second, answered - from);
          } else failedBy[status] = (failedBy[status] ?? 0) + 1;
          settled++;
          if (settled === total) resolve();
          else dispatch();
        });
      }
    };
    const tick = () => {
      const now = performance.now();
      advance(now);
      if (!announced && now >= measuredFrom) {
        announced = true;
        control.onMeasuring?.();
      }
      if (now > deadline && next < total) {
        abandoned = total - next;
        return cutOff();
      }
      dispatch();
      if (next < total) setTimeout(tick, 1); // on until every request is sent (or the deadline)
    };
    tick();
  });
  for (const connection of connections) connection.socket.destroy();
  const ordered = latencies.all.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  /** The `q` quantile of values sorted ascending, rounded to 0.01 ms (0 for none). */
  const at = (sorted: number[], q: number) =>
    round(sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
  const p99 = (values: number[] | undefined) => at((values ?? []).sort((a, b) => a - b), 0.99);
  return {
    sent: dueCount - warmup,
    ok: ordered.length,
    failed: Object.values(failedBy).reduce((sum, n) => sum + n, abandoned),
    failedBy: abandoned > 0 ? { ...failedBy, unsent: abandoned } : failedBy,
    p50Ms: at(ordered, 0.5),
    p99Ms: at(ordered, 0.99),
    maxMs: round(ordered.at(-1) ?? 0),
    p99BySecondMs: Array.from(latencies.bySecond, p99),
    sendLagP99Ms: p99(lags.all),
    sendLagP99BySecondMs: Array.from(lags.bySecond, p99),
    waitedForConnection,
    ownLagP99Ms: p99(ownLags),
    p99FromSendMs: p99(fromSend.all),
    p99FromSendBySecondMs: Array.from(fromSend.bySecond, p99),
  };
}
