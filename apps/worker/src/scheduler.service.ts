import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LoginService } from '@gatehouse/accounts';
import { SecretExpiryWarningService } from '@gatehouse/clients';
import { HandoverSweepService } from '@gatehouse/handovers';
import { InvitationSweepService } from '@gatehouse/invitations';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { AccessRequestSweepService } from '@gatehouse/requests';
import { SessionService } from '@gatehouse/sessions';
import { AssertionReplayGuard, AuthFailureTracker, SigningKeyService } from '@gatehouse/tokens';
import { type Schedule, schedulesWith } from './schedules.js';
import { WORKER_JOB_OPTIONS, type WorkerJobOptions } from './worker-options.js';

/** Runs each declared schedule on its interval; a run never overlaps the previous one. */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SchedulerService.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<string>();

  constructor(
    private readonly signingKeys: SigningKeyService,
    private readonly authFailures: AuthFailureTracker,
    private readonly assertionReplays: AssertionReplayGuard,
    private readonly logins: LoginService,
    private readonly sessions: SessionService,
    private readonly delivery: OutboxDeliveryService,
    private readonly invitations: InvitationSweepService,
    private readonly secretWarnings: SecretExpiryWarningService,
    private readonly accessRequests: AccessRequestSweepService,
    private readonly handovers: HandoverSweepService,
    @Inject(WORKER_JOB_OPTIONS) private readonly options: WorkerJobOptions,
  ) {}

  onApplicationBootstrap(): void {
    const schedules = schedulesWith(this.options.intervals);
    this.every(schedules.keyRotation, () => this.signingKeys.rotateDueKeys());
    this.every(schedules.outboxDelivery, () => this.deliverMail());
    this.every(schedules.invitationExpiry, () => this.expireInvitations());
    this.every(schedules.secretExpiryWarning, () => this.warnExpiringSecrets());
    this.every(schedules.throttlePurge, () => this.purgeThrottles());
    this.every(schedules.sessionPurge, () => this.sessions.purgeEnded());
    this.every(schedules.accessRequestExpiry, () => this.accessRequests.expireUnconfirmed());
    this.every(schedules.handoverExpiry, () => this.handovers.expireOverdue());
  }

  /** Failure counters whose window and block are over, and jtis of client assertions that expired. */
  async purgeThrottles(): Promise<number> {
    return (
      (await this.authFailures.purgeStale()) +
      (await this.logins.purgeStaleSourceThrottles()) +
      (await this.assertionReplays.purgeExpired()) +
      (await this.accessRequests.purgeStaleThrottles())
    );
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  /** One delivery pass: keeps claiming batches until nothing is due. */
  async deliverMail(): Promise<number> {
    const size = this.options.deliveryBatchSize ?? 50;
    let sent = 0;
    for (let i = 0; i < 20; i++) {
      const result = await this.delivery.deliverDue(size, this.options.delivery);
      sent += result.sent;
      if (result.claimed < size) break;
    }
    return sent;
  }

  expireInvitations() {
    return this.invitations.sweepExpired(this.options.sweepBatchSize);
  }

  warnExpiringSecrets() {
    return this.secretWarnings.warnExpiring();
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
