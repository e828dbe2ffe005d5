import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { ApiRow, ClientRow } from '../client-credentials.repository.js';

/** Which kind of credential a token request proved itself with. */
export type CredentialKind = 'secret' | 'certificate' | 'federated';

/** One token issued, as the replica remembers it until its next flush (the latest per credential, API and scopes). */
export interface CredentialUse {
  kind: CredentialKind;
  /** The secret's stored hash (latin1), the certificate's key id or the federated credential's id. */
  credential: string;
  tenantId: string;
  /** The client's object id (`api_clients.id`). */
  clientObjectId: string;
  /** The API whose scopes the token carried; null when they are no grants (the admin API, token exchange). */
  apiId: string | null;
  scopes: readonly string[];
  /** Epoch milliseconds. */
  at: number;
  /** The socket's peer and the `X-Forwarded-For` header as they came: the source address is worked out at flush. */
  peer: string | undefined;
  forwarded: string | string[] | undefined;
}

/**
 * Last use of credentials and scope grants, counted in memory by each identity replica: one
 * `Map.set` per token (the latest use of a credential for an API and set of scopes wins), taken
 * whole by {@link LastUseFlusher} at most once a minute. Nothing here touches the database, parses
 * a header or waits: the source address is worked out at flush from the two strings kept.
 */
@Injectable()
export class LastUseRecorder {
  readonly enabled: boolean;
  private uses = new Map<string, CredentialUse>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.lastUseTracking;
  }

  /**
   * Remembers a token just issued. `explicit`: the request named its scopes (not `.default`), so
   * they are part of the key and another set's use of the same credential is kept beside it.
   */
  record(
    kind: CredentialKind,
    credential: string,
    tenantId: string,
    client: ClientRow,
    api: ApiRow,
    scopes: readonly string[],
    explicit: boolean,
    origin: IncomingMessage | undefined,
  ): void {
    const key = explicit ? `${credential}${api.id}${scopes.join(' ')}` : credential + api.id;
    this.uses.set(key, {
      kind,
      credential,
      tenantId,
      clientObjectId: client.id,
      apiId: api.builtIn || api.tokenExchange ? null : api.id,
      scopes,
      at: Date.now(),
      peer: origin?.socket?.remoteAddress,
      forwarded: origin?.headers['x-forwarded-for'],
    });
  }

  /** Everything remembered since the last take, and a fresh map for what comes next. */
  take(): CredentialUse[] {
    if (this.uses.size === 0) return [];
    const taken = [...this.uses.values()];
    this.uses = new Map();
    return taken;
  }

  /** Puts back uses a failed flush could not write; a newer use of the same key already remembered wins. */
  restore(uses: readonly CredentialUse[]): void {
    for (const use of uses) {
      const key = `${use.credential}${use.apiId ?? ''}${use.scopes.join(' ')}#restored`;
      if (!this.uses.has(key)) this.uses.set(key, use);
    }
  }

  /** Drops what was remembered (the start-up warm-up's synthetic clients). */
  discard(): void {
    this.uses = new Map();
  }

  get pending(): number {
    return this.uses.size;
  }
}
