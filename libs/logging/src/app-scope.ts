import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The app (identity, admin, worker, cli) that the running code belongs to. Several apps share one
 * process under `npm start`, and pino keeps one root logger per process: each line takes its
 * `app` from this scope, entered when an app is built and started, and inherited by everything
 * it starts (listeners, timers, requests).
 */
const scope = new AsyncLocalStorage<string>();

export function runAsApp<T>(app: string, work: () => T): T {
  return scope.run(app, work);
}

export function currentApp(): string | undefined {
  return scope.getStore();
}
