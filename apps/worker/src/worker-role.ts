import type { AppConfig } from '@gatehouse/config';
import { AppLifecycle, type AppRole } from '@gatehouse/http';
import { SchedulerService } from './scheduler.service.js';
import { createWorker } from './worker.app.js';
import type { WorkerJobOptions } from './worker-options.js';

/** The worker as a role of a process: on SIGTERM it stops its timers and finishes the current batch. */
export function workerRole(config: AppConfig, jobs?: WorkerJobOptions): AppRole {
  return {
    name: 'worker',
    async start(metrics) {
      const worker = await createWorker({ config, metrics, jobs });
      const lifecycle = worker.get(AppLifecycle);
      const scheduler = worker.get(SchedulerService);
      return {
        name: 'worker',
        description: 'worker running (outbox delivery, expiry sweeps, key rotation)',
        ready: () => lifecycle.ready(),
        async drain(timeoutMs) {
          lifecycle.draining = true;
          await scheduler.drain(timeoutMs);
        },
        close: () => worker.close(),
      };
    },
  };
}
