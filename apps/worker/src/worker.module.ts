import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { type CoreOptions, coreImports } from '@gatehouse/schema';
import { TokensModule } from '@gatehouse/tokens';
import { SchedulerService } from './scheduler.service.js';

export interface WorkerModuleOptions extends Partial<CoreOptions> {
  config: AppConfig;
}

/** The worker: scheduled jobs (key rotation now; outbox delivery and expiry sweeps join it). */
@Module({})
export class WorkerModule {
  static register(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [...coreImports(options.config, { app: 'worker', poolSize: 4, ...options }), TokensModule],
      providers: [SchedulerService],
    };
  }
}
