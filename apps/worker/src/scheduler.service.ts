import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { LoginService, PasswordResetService } from '@gatehouse/accounts';
import { SecretExpiryWarningService, StaleCredentialService } from '@gatehouse/clients';
import { AuditStreamService, WebhookDeliveryService } from '@gatehouse/events';
import { HandoverSweepService } from '@gatehouse/handovers';
import { InvitationSweepService } from '@gatehouse/invitations';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { AccessRequestSweepService } from '@gatehouse/requests';
import { SessionService } from '@gatehouse/sessions';
import { AssertionReplayGuard, AuthFailureTracker, SigningKeyService } from '@gatehouse/tokens';
import { type Schedule, schedulesWith } from './schedules.js';
import { WORKER_JOB_OPTIONS, type WorkerJobOptions } from './worker-options.js';

/**
 * Runs each declared schedule on its interval (registered with @nestjs/schedule's registry); a
 * run never overlaps the previous one. On SIGTERM {@link drain} stops the timers and waits for the
 * runs in progress (the current outbox batch included).
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SchedulerService.name);
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly signingKeys: SigningKeyService,
    private readonly authFailures: AuthFailureTracker,
    private readonly assertionReplays: AssertionReplayGuard,
    private readonly logins: LoginService,
    private readonly passwordResets: PasswordResetService,
    private readonly sessions: SessionService,
    private readonly delivery: OutboxDeliveryService,
    private readonly invitations: InvitationSweepService,
    private readonly secretWarnings: SecretExpiryWarningService,
    private readonly staleCredentials: StaleCredentialService,
    private readonly accessRequests: AccessRequestSweepService,
    private readonly handovers: HandoverSweepService,
    private readonly webhooks: WebhookDeliveryService,
    private readonly auditStream: AuditStreamService,
    @Inject(WORKER_JOB_OPTIONS) private readonly options: WorkerJobOptions,
  ) {}

  onApplicationBootstrap(): void {
    const schedules = schedulesWith(this.options.intervals);
    this.every(schedules.keyRotation, () => this.signingKeys.rotateDueKeys());
    this.every(schedules.passwordResets, () => this.passwordResets.processDue());
    this.every(schedules.outboxDelivery, () => this.deliverMail());
    this.every(schedules.smtpProbe, () => this.delivery.probeAndWake());
    this.every(schedules.invitationExpiry, () => this.expireInvitations());
    this.every(schedules.secretExpiryWarning, () => this.warnExpiringSecrets());
    this.every(schedules.staleCredentials, () => this.staleCredentials.reportStale());
    this.every(schedules.throttlePurge, () => this.purgeThrottles());
    this.every(schedules.sessionPurge, () => this.sessions.purgeEnded());
    this.every(schedules.accessRequestExpiry, () => this.accessRequests.expireUnconfirmed());
    this.every(schedules.handoverExpiry, () => this.handovers.expireOverdue());
    this.every(schedules.webhookDelivery, () => this.deliverWebhooks());
    this.every(schedules.auditStreaming, () => this.streamAudit());
  }

  /** One audit streaming pass over each configured sink. */
  streamAudit(): Promise<number> {
    return this.auditStream.streamDue(this.options.auditStream, () => this.stopping);
  }

  /** One webhook pass: every subscription with due events, each in order, until none is due. */
  deliverWebhooks(): Promise<number> {
    return this.webhooks.deliverDue(this.options.webhooks, () => this.stopping);
  }

  /** Failure counters whose window and block are over, and jtis of client assertions that expired. */
  async purgeThrottles(): Promise<number> {
    return (
      (await this.authFailures.purgeStale()) +
      (await this.logins.purgeStaleSourceThrottles()) +
      (await this.assertionReplays.purgeExpired()) +
      (await this.accessRequests.purgeStaleThrottles()) +
      (await this.passwordResets.purgeStaleThrottles())
    );
  }

  /** Stops every timer and waits (at most `timeoutMs`) for the runs in progress to finish. */
  async drain(timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const name of this.registry.getIntervals()) this.registry.deleteInterval(name);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all(this.running.values()), timeout]);
    clearTimeout(timer);
  }

  onApplicationShutdown(): void {
    this.stopping = true;
    for (const name of this.registry.getIntervals()) this.registry.deleteInterval(name);
  }

  /** One delivery pass: keeps claiming batches until nothing is due (or the worker is stopping). */
  async deliverMail(): Promise<number> {
    const size = this.options.deliveryBatchSize ?? 50;
    let sent = 0;
    for (let i = 0; i < 20 && !this.stopping; i++) {
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

  /** Runs one schedule now unless a run of it is in progress; used by the interval and by tests. */
  async runOnce(schedule: Schedule, job: () => Promise<unknown>): Promise<void> {
    if (this.running.has(schedule.name) || this.stopping) return;
    const run = job().then(
      () => undefined,
      (error: unknown) => this.logger.error({ schedule: schedule.name, err: error }, 'scheduled job failed'),
    );
    this.running.set(schedule.name, run);
    await run.finally(() => this.running.delete(schedule.name));
  }

  private every(schedule: Schedule, job: () => Promise<unknown>): void {
    const timer = setInterval(() => void this.runOnce(schedule, job), schedule.everyMs);
    timer.unref();
    this.registry.addInterval(schedule.name, timer);
  }
}
