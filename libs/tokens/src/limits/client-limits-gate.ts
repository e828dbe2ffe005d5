import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { sourceAddress } from '@gatehouse/http';
import type { ClientSnapshot } from '../client-credentials.repository.js';
import { TokenRequestError, TokenRequestErrorCode } from '../token-request.errors.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Quota windows kept before the ended ones are swept. */
const MAX_WINDOWS = 100_000;
/** Refusals remembered within a minute before older keys are dropped (a spray of addresses cannot grow it without end). */
const MAX_AUDITED = 50_000;

export const SOURCE_REFUSED_EVENT = 'client.token.source_refused';
export const QUOTA_EXCEEDED_EVENT = 'client.token.quota_exceeded';

interface QuotaWindow {
  start: number;
  count: number;
}

/**
 * A client's network restriction and token quota (DESIGN §12), checked after it authenticated:
 * a request from outside its allowed source ranges (the address as seen through TRUST_PROXY) is
 * refused as Entra's Conditional Access refuses it (400 invalid_client, AADSTS53003); beyond its
 * tokens per hour, 429 with Retry-After. Only clients with a limit reach here: for the others the
 * hot path pays one property read.
 *
 * The quota is counted in memory by each identity replica, in windows of an hour from a client's
 * first request (with N replicas behind a balancer a client gets up to N × its quota). Refusals
 * are audited at most once per client, address, kind and minute on each replica.
 */
@Injectable()
export class ClientLimitsGate {
  private readonly logger = new Logger(ClientLimitsGate.name);
  private readonly windows = new Map<string, QuotaWindow>();
  private readonly audited = new Set<string>();
  private auditedMinute = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** null when the request may go on; else a promise that rejects with the refusal (once it is audited). */
  check(tenantId: string, snapshot: ClientSnapshot, origin: IncomingMessage | undefined): Promise<never> | null {
    const limits = snapshot.limits;
    if (limits === null) return null;
    if (limits.ranges !== null) {
      const source = sourceAddress(origin, this.config.trustProxy);
      if (!limits.ranges.admits(source)) {
        return this.refuse(tenantId, snapshot, source, SOURCE_REFUSED_EVENT, { allowedSourceRanges: limits.ranges.ranges.length }, sourceRefused());
      }
    }
    if (limits.tokensPerHour !== null) {
      const now = Date.now();
      const window = this.windowOf(snapshot.client.id, now);
      if (window.count >= limits.tokensPerHour) {
        const retryAfterSeconds = Math.max(1, Math.ceil((window.start + HOUR_MS - now) / 1000));
        const source = sourceAddress(origin, this.config.trustProxy);
        const details = { tokensPerHour: limits.tokensPerHour, retryAfterSeconds };
        return this.refuse(tenantId, snapshot, source, QUOTA_EXCEEDED_EVENT, details, quotaExceeded(limits.tokensPerHour, retryAfterSeconds));
      }
      window.count++;
    }
    return null;
  }

  private windowOf(clientObjectId: string, now: number): QuotaWindow {
    let window = this.windows.get(clientObjectId);
    if (window === undefined || now - window.start >= HOUR_MS) {
      if (window === undefined && this.windows.size >= MAX_WINDOWS) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(clientObjectId, window);
    }
    return window;
  }

  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (now - window.start >= HOUR_MS) this.windows.delete(id);
    if (this.windows.size >= MAX_WINDOWS) this.windows.clear();
  }

  /** Audits the refusal unless this client, address and kind were audited this minute; then rejects with it. */
  private async refuse(
    tenantId: string,
    snapshot: ClientSnapshot,
    source: string,
    action: string,
    details: Record<string, unknown>,
    error: TokenRequestError,
  ): Promise<never> {
    const minute = Math.floor(Date.now() / MINUTE_MS);
    if (minute !== this.auditedMinute || this.audited.size >= MAX_AUDITED) {
      this.audited.clear();
      this.auditedMinute = minute;
    }
    const key = `${snapshot.client.id}|${source}|${action}`;
    if (this.audited.has(key)) throw error;
    this.audited.add(key);
    const actor: Actor = { type: 'client', userId: null, clientId: snapshot.client.clientId, sourceAddress: source };
    try {
      await this.dataSource.transaction((em) =>
        this.audit.record(em, { tenantId, actor, action, targetType: 'client', targetId: snapshot.client.clientId, details: { source, ...details } }),
      );
    } catch (failure) {
      // The refusal stands whether or not it could be written down.
      this.logger.error(`could not audit ${action} of client ${snapshot.client.clientId}: ${(failure as Error).message}`);
    }
    throw error;
  }
}

/** Entra's answer when Conditional Access blocks a workload identity. */
function sourceRefused(): TokenRequestError {
  return new TokenRequestError(
    TokenRequestErrorCode.SourceNotAllowed,
    'Access has been blocked by Conditional Access policies. The access policy does not allow token issuance.',
  );
}

function quotaExceeded(tokensPerHour: number, retryAfterSeconds: number): TokenRequestError {
  return new TokenRequestError(
    TokenRequestErrorCode.QuotaExceeded,
    `The client has used its quota of ${tokensPerHour} tokens per hour. Reuse the token it holds until it expires, or try again in ${retryAfterSeconds} seconds.`,
    { retryAfterSeconds },
  );
}
