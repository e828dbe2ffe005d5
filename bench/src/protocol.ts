/** What the orchestrator and the server child processes share. */

export type Algorithm = 'ES256' | 'RS256';
export const ALGORITHMS: Algorithm[] = ['ES256', 'RS256'];

export const API_IDENTIFIER = 'api://orders';
export const SCOPE_VALUE = 'Orders.Read';

/** Sent by a server child over the IPC channel once it accepts requests. */
export interface ReadyMessage {
  ready: true;
  pid: number;
}

/** Tells the parent the child listens; shared by the three server entry points. */
export function announceReady(): void {
  process.send?.({ ready: true, pid: process.pid } satisfies ReadyMessage);
}

/** Stops on SIGTERM with a normal exit, so that `--cpu-prof` writes its profile. */
export function exitOnSignal(close: () => Promise<void> | void): void {
  const stop = () => {
    void Promise.resolve()
      .then(close)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
