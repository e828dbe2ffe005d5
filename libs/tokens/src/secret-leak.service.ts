import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { SecretHasher } from '@gatehouse/crypto';
import { ChangeListener, announceChange } from '@gatehouse/database';
import { printable } from '@gatehouse/logging';
import { MailOutbox, isSingleAddress, secretLeakedEmail } from '@gatehouse/mail';
import { ClientCredentialsRepository } from './client-credentials.repository.js';
import { CredentialDirectory } from './credential-directory.js';

export const MAX_LEAK_REPORT_TOKENS = 100;
/** Reports accepted per source address within a window. */
export const LEAK_REPORTS_PER_SOURCE = 20;
export const LEAK_REPORT_WINDOW_SECONDS = 900;

export enum SecretLeakErrorCode {
  InvalidReport = 'invalid_report',
  UnknownTenant = 'unknown_tenant',
  TooManyReports = 'too_many_reports',
}

export class SecretLeakError extends Error {
  constructor(
    readonly code: SecretLeakErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'SecretLeakError';
  }
}

interface ReportedToken {
  token: string;
  url: string | null;
  source: string | null;
}

interface LeakedSecret {
  id: string;
  key_id: string;
  hint: string;
  client_id: string;
  client_name: string;
  contact_email: string | null;
}

/** The answer to every accepted report, whether or not anything matched. */
export interface LeakReportReceipt {
  received: number;
}

/**
 * The secret-scanning report (DESIGN §9; GitHub's partner program is the model): anyone may report
 * up to 100 strings found in public; every one that is an active secret of the tenant is revoked at
 * once, its client's contact and the tenant's contact persons are told, and each revocation is
 * audited (`client.secret.leak_revoked`) — one transaction. The answer is the same for a match
 * and a miss, and the endpoint can only ever revoke; it is rate-limited per source address.
 */
@Injectable()
export class SecretLeakService {
  private readonly logger = new Logger(SecretLeakService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly directory: CredentialDirectory,
    private readonly counters: ClientCredentialsRepository,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
    private readonly changes: ChangeListener,
  ) {}

  async report(tenantIdOrSlug: string, body: unknown, requestSource: string): Promise<LeakReportReceipt> {
    const tokens = parseReport(body);
    const tenant = tenantIdOrSlug.length <= 100 ? await this.directory.tenant(tenantIdOrSlug) : null;
    if (!tenant) throw new SecretLeakError(SecretLeakErrorCode.UnknownTenant, 'No such tenant.');
    const counted = await this.counters.recordSourceEvent(
      tenant.id,
      `leak-report:${requestSource}`,
      LEAK_REPORT_WINDOW_SECONDS,
      LEAK_REPORTS_PER_SOURCE,
    );
    if (counted.failures > LEAK_REPORTS_PER_SOURCE && counted.blockedUntil) {
      const retryAfterSeconds = Math.max(1, Math.ceil((counted.blockedUntil.getTime() - Date.now()) / 1000));
      throw new SecretLeakError(SecretLeakErrorCode.TooManyReports, 'Too many reports from your address.', retryAfterSeconds);
    }
    const clients = await this.dataSource.transaction((em) => this.revokeMatches(em, tenant.id, tokens));
    // Revoked at once on this replica (the report's answer comes after it); the others hear the notification.
    for (const clientId of new Set(clients)) this.changes.heard({ kind: 'client', tenantId: tenant.id, id: clientId });
    const revoked = clients.length;
    if (revoked > 0) this.logger.warn(`secret leak report revoked ${revoked} secret(s) tenant=${tenant.id} source=${printable(requestSource, 64)}`);
    return { received: tokens.length };
  }

  /** Revokes the live secrets among `tokens`, audits and mails each; the clients of those revoked, one per secret. */
  private async revokeMatches(em: EntityManager, tenantId: string, tokens: ReportedToken[]): Promise<string[]> {
    const byHash = new Map(tokens.map((t) => [this.hasher.hash(t.token).toString('hex'), t]));
    const leaked: Array<LeakedSecret & { secret_hash: string }> = await em.query(
      `WITH revoked AS (
         UPDATE client_secrets s SET revoked_at = now()
           FROM api_clients c
          WHERE c.id = s.api_client_id AND s.tenant_id = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
            AND s.secret_hash IN (SELECT decode(h, 'hex') FROM unnest($2::text[]) AS h)
         RETURNING s.id, s.key_id, s.hint, encode(s.secret_hash, 'hex') AS secret_hash,
                   c.client_id, c.display_name AS client_name, c.contact_email)
       SELECT * FROM revoked`,
      [tenantId, [...byHash.keys()]],
    );
    if (leaked.length === 0) return [];
    const contactPersons: Array<{ email: string }> = await em.query(
      `SELECT email FROM users WHERE tenant_id = $1 AND status = 'active' AND 'ContactPerson' = ANY(roles)`,
      [tenantId],
    );
    const revokedAt = new Date();
    for (const secret of leaked) {
      const report = byHash.get(secret.secret_hash)!;
      await this.audit.record(em, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: 'client.secret.leak_revoked',
        targetType: 'client',
        targetId: secret.client_id,
        details: { keyId: secret.key_id, hint: secret.hint, url: report.url, source: report.source },
      });
      const recipients = new Set([secret.contact_email, ...contactPersons.map((p) => p.email)].filter(isSingleAddress));
      const mail = secretLeakedEmail({
        clientDisplayName: secret.client_name,
        clientId: secret.client_id,
        secretHint: secret.hint,
        reportedUrl: report.url,
        revokedAt,
      });
      await this.outbox.enqueueMany(em, [...recipients].map((to) => ({ tenantId, to, mail })));
      await announceChange(em, 'client', tenantId, secret.client_id);
    }
    return leaked.map((secret) => secret.client_id);
  }
}

/** `[{token, url?, source?}]`, 1 to 100 entries; anything else is an invalid report. */
function parseReport(body: unknown): ReportedToken[] {
  const invalid = (message: string) => new SecretLeakError(SecretLeakErrorCode.InvalidReport, message);
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_LEAK_REPORT_TOKENS) {
    throw invalid(`The body must be a JSON array of 1 to ${MAX_LEAK_REPORT_TOKENS} objects {"token", "url"?, "source"?}.`);
  }
  return body.map((entry: unknown, index) => {
    const item = entry as Record<string, unknown> | null;
    const text = (name: string, max: number) => {
      const value = item?.[name];
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string' || value.length > max) throw invalid(`Entry ${index}: ${name} must be a string of at most ${max} characters.`);
      return printable(value, max);
    };
    const token = item?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 512) {
      throw invalid(`Entry ${index}: token must be a string of 1 to 512 characters.`);
    }
    return { token, url: text('url', 2048), source: text('source', 200) };
  });
}
