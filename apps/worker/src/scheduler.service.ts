import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SigningKeyService } from '@gatehouse/tokens';
import { SCHEDULES, type Schedule } from './schedules.js';

/** Runs each declared schedule on its interval; a run never overlaps the previous one. */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SchedulerService.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<string>();

  constructor(private readonly signingKeys: SigningKeyService) {}

  onApplicationBootstrap(): void {
    this.every(SCHEDULES.keyRotation, () => this.signingKeys.rotateDueKeys());
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  /** Runs one schedule now; used by the interval and by tests. */
  async runOnce(schedule: Schedule, job: () => Promise<unknown>): Promise<void> {
    if (this.running.has(schedule.name)) return;
    this.running.add(schedule.name);
    try {
      await job();
    } catch (error) {
      this.logger.error({ schedule: schedule.name, err: error }, 'scheduled job failed');
    } finally {
      this.running.delete(schedule.name);
    }
  }

  private every(schedule: Schedule, job: () => Promise<unknown>): void {
    const timer = setInterval(() => void this.runOnce(schedule, job), schedule.everyMs);
    timer.unref();
    this.timers.push(timer);
  }
}
