import type { IncomingMessage } from 'node:http';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { sourceAddress } from '@gatehouse/http';
import { type CredentialKind, type CredentialUse, LastUseRecorder } from './last-use-recorder.js';
import { type CredentialUseRow, type GrantUseRow, LastUseRepository } from './last-use.repository.js';

/**
 * Writes what {@link LastUseRecorder} counted: every LAST_USE_FLUSH_SECONDS (60 by default) and once
 * more when the app shuts down (SIGTERM drains, then closes the app), one batched UPDATE per table.
 * A replica killed without SIGTERM loses at most the uses since its last flush. A failed flush puts
 * its uses back for the next one.
 */
@Injectable()
export class LastUseFlusher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LastUse');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly recorder: LastUseRecorder,
    private readonly repository: LastUseRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.recorder.enabled) return;
    this.timer = setInterval(() => void this.flush(), this.config.lastUseFlushSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes everything counted so far (waits for a flush already under way, then writes what came since). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    const uses = this.recorder.take();
    if (uses.length === 0) return;
    this.running = this.write(uses).finally(() => (this.running = undefined));
    await this.running;
  }

  private async write(uses: CredentialUse[]): Promise<void> {
    try {
      const { credentials, grants } = rowsOf(uses, (use) => this.sourceOf(use));
      await this.repository.secrets(credentials.secret);
      await this.repository.certificates(credentials.certificate);
      await this.repository.federated(credentials.federated);
      await this.repository.grants(grants);
    } catch (error) {
      this.recorder.restore(uses);
      this.logger.warn(`last use not written, kept for the next flush: ${(error as Error).message}`);
    }
  }

  private sourceOf(use: CredentialUse): string {
    const request = {
      socket: { remoteAddress: use.peer },
      connection: { remoteAddress: use.peer },
      headers: use.forwarded === undefined ? {} : { 'x-forwarded-for': use.forwarded },
    } as unknown as IncomingMessage;
    return sourceAddress(request, this.config.trustProxy);
  }
}

/** The uses as rows, one per credential and one per grant, the latest of each. */
export function rowsOf(
  uses: readonly CredentialUse[],
  sourceOf: (use: CredentialUse) => string,
): { credentials: Record<CredentialKind, CredentialUseRow[]>; grants: GrantUseRow[] } {
  const latest = new Map<string, CredentialUse>();
  const grants = new Map<string, GrantUseRow>();
  for (const use of uses) {
    const key = `${use.kind}|${use.credential}`;
    if ((latest.get(key)?.at ?? -1) < use.at) latest.set(key, use);
    if (use.apiId === null) continue;
    for (const value of use.scopes) {
      const grantKey = `${use.clientObjectId}|${use.apiId}|${value}`;
      const known = grants.get(grantKey);
      if (!known || known.at.getTime() < use.at) {
        grants.set(grantKey, { tenantId: use.tenantId, clientObjectId: use.clientObjectId, apiId: use.apiId, value, at: new Date(use.at) });
      }
    }
  }
  const credentials: Record<CredentialKind, CredentialUseRow[]> = { secret: [], certificate: [], federated: [] };
  for (const use of latest.values()) {
    credentials[use.kind].push({
      tenantId: use.tenantId,
      clientObjectId: use.clientObjectId,
      credential: use.credential,
      at: new Date(use.at),
      from: sourceOf(use),
    });
  }
  return { credentials, grants: [...grants.values()] };
}
