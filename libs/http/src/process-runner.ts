import type { AppConfig } from '@gatehouse/config';
import { runAsApp } from '@gatehouse/logging';
import { ManagementServer } from './management-server.js';
import { MetricsRegistry } from './metrics.js';
import { tuneHeapForServing } from './serving-heap.js';

/** One app of a process, started: how ready it is, how it drains on SIGTERM, how it closes. */
export interface RunningApp {
  name: string;
  /** One line for the operator ("identity listening on http://127.0.0.1:3000"). */
  description: string;
  ready(): Promise<boolean>;
  /** Stop taking work and finish what is in flight, within `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** An app to start with the process' shared metrics registry. */
export interface AppRole {
  name: string;
  start(metrics: MetricsRegistry): Promise<RunningApp>;
}

export interface RunOptions {
  log: (line: string) => void;
  /** After every app started and the management listener listens (npm start prints credentials). */
  afterStart?: () => Promise<void> | void;
  /** After every app closed (npm start stops the embedded Postgres). */
  afterStop?: () => Promise<void>;
  /** Stops the process from inside (tests); SIGTERM and SIGINT do the same. */
  stopSignal?: Promise<void>;
}

/**
 * Runs apps in this process until SIGTERM or SIGINT, then stops them gracefully: readiness turns
 * 503, listeners stop accepting, requests in flight and the current outbox batch finish (at most
 * SHUTDOWN_TIMEOUT_SECONDS), connections close. Resolves with the exit code: 0 after a clean
 * stop, 1 when an app failed to start.
 */
export async function runApps(config: AppConfig, roles: AppRole[], options: RunOptions): Promise<number> {
  tuneHeapForServing();
  const metrics = new MetricsRegistry();
  const running: RunningApp[] = [];
  const management = new ManagementServer(metrics, () => running);
  const stop = new StopRequest(options.stopSignal);
  let code = 0;
  try {
    for (const role of roles) {
      if (stop.asked) break; // a signal during start-up: start no more apps
      running.push(await runAsApp(role.name, () => role.start(metrics)));
    }
    const port = await management.listen(config.managementPort, config.host);
    for (const app of running) options.log(app.description);
    options.log(`management listening on http://${config.host}:${port} (/metrics, /health/ready)`);
    await options.afterStart?.();
    await stop.requested;
    options.log('stopping: draining requests and jobs');
  } catch (error) {
    options.log(`start failed: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    await stopAll(running, config.shutdownTimeoutSeconds * 1000, options.log);
    await management.close();
    await options.afterStop?.().catch((error: unknown) => options.log(`stop failed: ${String(error)}`));
    stop.dispose();
  }
  return code;
}

/**
 * SIGTERM, SIGINT or the caller's own signal. The handlers stay until the drain is over (`on`,
 * not `once`): a second signal must not kill the process half-way through it.
 */
class StopRequest {
  asked = false;
  readonly requested: Promise<void>;
  private readonly onSignal: () => void;

  constructor(extra?: Promise<void>) {
    let resolve!: () => void;
    this.requested = new Promise<void>((r) => (resolve = r));
    this.onSignal = () => {
      this.asked = true;
      resolve();
    };
    process.on('SIGTERM', this.onSignal);
    process.on('SIGINT', this.onSignal);
    void extra?.then(this.onSignal);
  }

  dispose(): void {
    process.removeListener('SIGTERM', this.onSignal);
    process.removeListener('SIGINT', this.onSignal);
  }
}

async function stopAll(running: RunningApp[], timeoutMs: number, log: (line: string) => void): Promise<void> {
  await Promise.all(
    running.map((app) => app.drain(timeoutMs).catch((e: unknown) => log(`${app.name}: drain failed: ${String(e)}`))),
  );
  for (const app of running.reverse())
    await app.close().catch((e: unknown) => log(`${app.name}: close failed: ${String(e)}`));
}
