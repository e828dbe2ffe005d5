import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AccountsModule } from '@gatehouse/accounts';
import { ClientsModule } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { AuditStreamModule, EventsModule } from '@gatehouse/events';
import { HandoversModule } from '@gatehouse/handovers';
import { InvitationsModule } from '@gatehouse/invitations';
import { MailModule } from '@gatehouse/mail';
import { RequestsModule } from '@gatehouse/requests';
import { SessionsModule } from '@gatehouse/sessions';
import { type CoreOptions, coreImports } from '@gatehouse/schema';
import { TokensModule } from '@gatehouse/tokens';
import { SchedulerService } from './scheduler.service.js';
import { WORKER_JOB_OPTIONS, type WorkerJobOptions } from './worker-options.js';

export interface WorkerModuleOptions extends Partial<CoreOptions> {
  config: AppConfig;
  /** Intervals, batch sizes and retry policy of the jobs (tests use small ones). */
  jobs?: WorkerJobOptions;
}

/** The worker: scheduled jobs (key rotation, outbox delivery, invitation expiry, secret warnings). */
@Module({})
export class WorkerModule {
  static register(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...coreImports(options.config, { app: 'worker', poolSize: 4, ...options }),
        TokensModule,
        AccountsModule,
        MailModule,
        InvitationsModule,
        ClientsModule,
        SessionsModule,
        RequestsModule,
        HandoversModule,
        EventsModule,
        AuditStreamModule,
        ScheduleModule.forRoot(),
      ],
      providers: [SchedulerService, { provide: WORKER_JOB_OPTIONS, useValue: options.jobs ?? {} }],
    };
  }
}
