import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { ClientError, ClientErrorCode } from '../client.errors.js';
import { ClientRepository } from '../client.repository.js';
import { ClientService } from '../client.service.js';
import { type ClientView, toClientView } from '../client.view.js';
import { MAX_SOURCE_RANGES, canonicalRanges } from './source-ranges.js';

export const MAX_TOKENS_PER_HOUR = 1_000_000;

/** A change of a client's limits; a field left out stays, null (or an empty list) removes the limit. */
export interface ClientLimitsInput {
  allowedSourceRanges?: string[] | null;
  tokensPerHour?: number | null;
}

function invalid(field: string, message: string, items: string[] = []): ClientError {
  return new ClientError(ClientErrorCode.InvalidLimits, message, items, field);
}

/** The ranges as stored (canonical; null: anywhere), or a 400 naming the field and the texts that do not parse. */
export function checkRanges(value: unknown): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw invalid('allowedSourceRanges', 'allowedSourceRanges must be a list of CIDRs, or null.');
  if (value.length > MAX_SOURCE_RANGES) throw invalid('allowedSourceRanges', `allowedSourceRanges holds at most ${MAX_SOURCE_RANGES} ranges.`);
  const { ranges, invalid: bad } = canonicalRanges(value as string[]);
  if (bad.length) {
    const shown = bad.slice(0, 5).map((text) => `"${text.slice(0, 64)}"`).join(', ');
    throw invalid('allowedSourceRanges', `allowedSourceRanges must be IPv4 or IPv6 CIDRs like 203.0.113.0/24 or 2001:db8::/32; not ${shown}.`, bad);
  }
  return ranges.length ? ranges : null;
}

export function checkTokensPerHour(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TOKENS_PER_HOUR) {
    throw invalid('tokensPerHour', `tokensPerHour must be a whole number from 1 to ${MAX_TOKENS_PER_HOUR}, or null for no quota.`);
  }
  return value;
}

/**
 * Where a client's token requests may come from and how many tokens it may get per hour (IT,
 * Scopes.Assign; an operator client's limits are its owner's and the Administrators' alone, like
 * its credentials). Checked whole before anything is written; audited and announced, so every
 * token cache drops the client at once.
 */
@Injectable()
export class ClientLimitsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientRepository,
    private readonly clientService: ClientService,
    private readonly audit: AuditService,
  ) {}

  update(tenantId: string, actor: Actor, clientId: string, input: ClientLimitsInput): Promise<ClientView> {
    const ranges = input.allowedSourceRanges === undefined ? undefined : checkRanges(input.allowedSourceRanges);
    const quota = input.tokensPerHour === undefined ? undefined : checkTokensPerHour(input.tokensPerHour);
    return this.dataSource.transaction(async (tx) => {
      const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
      const before = { allowedSourceRanges: client.allowedSourceRanges, tokensPerHour: client.tokensPerHour };
      if (ranges !== undefined) client.allowedSourceRanges = ranges;
      if (quota !== undefined) client.tokensPerHour = quota;
      const saved = await this.clients.save(tx, client);
      const after = { allowedSourceRanges: saved.allowedSourceRanges, tokensPerHour: saved.tokensPerHour };
      await this.audit.record(tx, {
        tenantId,
        actor,
        action: 'client.limits.updated',
        targetType: 'client',
        targetId: client.clientId,
        details: { before, after },
      });
      await announceChange(tx, 'client', tenantId, client.clientId);
      return toClientView(saved, (await this.clients.grantedScopes([saved.id], tx)).map((g) => g.scope));
    });
  }
}
