import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type CursorPosition, poolOf } from '@gatehouse/database';
import { POLICY_BREACH } from '../policy/policy-breach.repository.js';
import type { CredentialKindName, CredentialReportFilter, CredentialState } from './credential-report.view.js';

export interface ReportRow {
  id: string;
  kind: CredentialKindName;
  key_id: string;
  display_name: string;
  detail: string | null;
  subject: string | null;
  created_at: Date;
  position: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_from: string | null;
  state: CredentialState;
  disabled_at: Date | null;
  client_id: string;
  client_name: string;
}

/** How each kind's table reads as a report row. */
const KINDS: Record<CredentialKindName, { table: string; columns: string; expires: string | null; revoked: string | null }> = {
  secret: {
    table: 'client_secrets',
    columns: `k.key_id, k.display_name, k.hint AS detail, NULL::text AS subject`,
    expires: 'k.expires_at',
    revoked: 'k.revoked_at',
  },
  certificate: {
    table: 'client_certificates',
    columns: `k.key_id, k.display_name, k.thumbprint AS detail, k.subject`,
    expires: 'k.not_after',
    revoked: null,
  },
  federated: {
    table: 'client_federated_credentials',
    columns: `k.id AS key_id, k.name AS display_name, k.issuer AS detail, COALESCE(k.subject, k.claims_expression) AS subject`,
    expires: null,
    revoked: null,
  },
};

const POSITION = `date_trunc('milliseconds', k.created_at AT TIME ZONE 'UTC')`;

/**
 * The credential report's reads: every credential of the tenant in one order (created, then id,
 * across the three kinds), a page at a time by keyset — each kind read off its
 * (tenant, position, id) index, so a page costs the same wherever it is.
 */
@Injectable()
export class CredentialReportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(tenantId: string, filter: CredentialReportFilter, after: CursorPosition | undefined, take: number): Promise<ReportRow[]> {
    const params: unknown[] = [tenantId, take];
    const branches = (Object.keys(KINDS) as CredentialKindName[])
      .filter((kind) => filter.kind === undefined || filter.kind === kind)
      .map((kind) => branch(kind, filter, after, params))
      .filter((sql): sql is string => sql !== null);
    if (branches.length === 0) return [];
    const { rows } = await poolOf(this.dataSource).query<ReportRow>(
      `SELECT r.*, c.client_id, c.display_name AS client_name
         FROM (${branches.join(' UNION ALL ')}) r
         JOIN api_clients c ON c.id = r.api_client_id AND c.tenant_id = $1
        ORDER BY r.position, r.id
        LIMIT $2`,
      params,
    );
    return rows;
  }
}

function branch(kind: CredentialKindName, filter: CredentialReportFilter, after: CursorPosition | undefined, params: unknown[]): string | null {
  const spec = KINDS[kind];
  const state = stateOf(spec.expires, spec.revoked);
  const mark = params.length;
  const conditions = conditionsOf(kind, state, filter, params);
  // A kind no credential of which can match leaves no parameter behind: PostgreSQL refuses one it cannot type.
  if (conditions === null) {
    params.length = mark;
    return null;
  }
  if (after) {
    params.push(after.at, after.id);
    conditions.push(`(${POSITION}, k.id) > ($${params.length - 1}::timestamptz AT TIME ZONE 'UTC', $${params.length}::uuid)`);
  }
  return `(SELECT k.id, '${kind}'::text AS kind, ${spec.columns}, k.created_at, ${POSITION} AS position,
                  ${spec.expires ?? 'NULL::timestamptz'} AS expires_at, k.last_used_at, k.last_used_from,
                  ${state} AS state, k.disabled_at, k.api_client_id
             FROM ${spec.table} k
            WHERE ${['k.tenant_id = $1', ...conditions].join(' AND ')}
            ORDER BY ${POSITION}, k.id
            LIMIT $2)`;
}

/** Revoked, then expired, then disabled (as stale, reversible), else active. */
function stateOf(expires: string | null, revoked: string | null): string {
  const cases = [revoked ? `WHEN ${revoked} IS NOT NULL THEN 'revoked'` : '', expires ? `WHEN ${expires} <= now() THEN 'expired'` : '']
    .filter(Boolean)
    .join(' ');
  return `(CASE ${cases} WHEN k.disabled_at IS NOT NULL THEN 'disabled' ELSE 'active' END)`;
}

/** The filter as SQL conditions on one kind; null when no credential of the kind can match. */
function conditionsOf(kind: CredentialKindName, state: string, filter: CredentialReportFilter, params: unknown[]): string[] | null {
  const spec = KINDS[kind];
  const conditions: string[] = [];
  if (filter.state) {
    params.push(filter.state);
    conditions.push(`${state} = $${params.length}`);
  }
  if (filter.expiringWithinDays !== undefined) {
    if (!spec.expires) return null;
    params.push(filter.expiringWithinDays);
    conditions.push(`${spec.expires} <= now() + make_interval(days => $${params.length}::int)`);
    if (spec.revoked) conditions.push(`${spec.revoked} IS NULL`);
  }
  if (filter.neverUsed) conditions.push('k.last_used_at IS NULL');
  if (filter.unusedForDays !== undefined) {
    params.push(filter.unusedForDays);
    conditions.push(`COALESCE(k.last_used_at, k.created_at) < now() - make_interval(days => $${params.length}::int)`);
  }
  if (filter.outsidePolicy) {
    const rule = POLICY_BREACH[kind];
    conditions.push(rule.live, `EXISTS (SELECT 1 FROM credential_policies p WHERE p.tenant_id = $1 AND (${rule.breach}))`);
  }
  return conditions;
}
