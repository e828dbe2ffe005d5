import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type ClaimsMatcher, compileClaimsExpression } from '@gatehouse/clients';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ChangeListener, poolOf } from '@gatehouse/database';
import { ChangeAwareCache } from '../change-aware-cache.js';

/** A federated credential as the token endpoint matches it: its expression compiled once. */
export interface FederatedMatcher {
  id: string;
  issuer: string;
  audiences: readonly string[];
  /** The exact `sub`, or null when `matcher` decides. */
  subject: string | null;
  matcher: ClaimsMatcher | null;
}

interface Row {
  id: string;
  issuer: string;
  subject: string | null;
  claims_expression: string | null;
  claims_expression_version: number | null;
  audiences: string[];
}

const SQL = `SELECT id, issuer, subject, claims_expression, claims_expression_version, audiences
               FROM client_federated_credentials WHERE tenant_id = $1 AND api_client_id = $2 AND disabled_at IS NULL`;

/**
 * The federated credentials of each client that presents an external token, cached per replica
 * and dropped when the client changes (every credential change announces the client), like the
 * client's own snapshot, and like it served through a database outage for
 * TOKEN_OUTAGE_GRACE_SECONDS. Kept apart from that snapshot: the secret path never reads or carries them.
 */
@Injectable()
export class FederatedCredentialDirectory {
  private readonly cache: ChangeAwareCache<FederatedMatcher[]>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    listener: ChangeListener,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new ChangeAwareCache(listener, {
      kinds: ['client'],
      ttlMs: 5 * 60_000,
      matches: (key, event) => key.endsWith(`|${event.id}`),
      keyOf: (event) => `${event.tenantId}|${event.id}`,
      maxEntries: 20_000,
      outageGraceMs: config.tokenOutageGraceSeconds * 1000,
    });
  }

  /** The client's credentials: `clientId` names the cache entry, `objectId` the rows. */
  of(tenantId: string, clientId: string, objectId: string): Promise<FederatedMatcher[]> {
    return this.cache.get(`${tenantId}|${clientId.toLowerCase()}`, tenantId, () => this.load(tenantId, objectId));
  }

  private async load(tenantId: string, objectId: string): Promise<FederatedMatcher[]> {
    const { rows } = await poolOf(this.dataSource).query<Row>(SQL, [tenantId, objectId]);
    return rows.map((row) => ({
      id: row.id,
      issuer: row.issuer,
      audiences: row.audiences,
      subject: row.subject,
      matcher:
        row.claims_expression === null
          ? null
          : compileClaimsExpression({ value: row.claims_expression, languageVersion: row.claims_expression_version ?? 1 }),
    }));
  }
}
