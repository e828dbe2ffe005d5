import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { type CursorCodec, DEFAULT_PAGE_SIZE, type KeysetFetch, type TextSort, isPostgresTimestamp, textCursors, twoWayPage } from '@gatehouse/database';
import type { ClientState } from './api-client.entity.js';
import { type BrowsePosition, CLIENT_SORT_COLUMNS, ClientBrowseRepository, type ClientBrowseRow } from './client-browse.repository.js';
import { ClientRepository } from './client.repository.js';

export interface ClientBrowseFilter {
  search?: string;
  state?: ClientState;
  apiId?: string;
  expiringSecrets?: boolean;
  expiredHandovers?: boolean;
  /** Cursor from `newer` of a page: the page above it. */
  before?: string;
  /** Cursor from `older` of a page: the page below it. */
  after?: string;
  /** By name or state (`-` reversed) instead of newest first. */
  sort?: TextSort;
}

/** A row of the clients list: what answers the usual question without opening the client. */
export interface ClientSummary {
  clientId: string;
  displayName: string;
  state: ClientState;
  contactEmail: string | null;
  ownerUserId: string | null;
  scopes: string[];
  soonestSecretExpiry: Date | null;
}

/** A page of a newest-first list; a cursor is absent where there is nothing more that way. */
export interface BrowsePage<T> {
  items: T[];
  newer?: string;
  older?: string;
}

export function encodeBrowseCursor(position: BrowsePosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), 'utf8').toString('base64url');
}

/** A cursor this list issued, or nothing (a mangled cursor starts from the newest). */
export function decodeBrowseCursor(cursor: string | undefined): BrowsePosition | undefined {
  if (!cursor) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      if (isPostgresTimestamp(parsed[0]) && isUUID(parsed[1])) return { at: parsed[0], id: parsed[1] };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The list's cursors: by default the creation time at Postgres's precision, in a text sort its column's value; a mangled one, or one of another order, starts from the top. */
function browseCursors(sort: TextSort | undefined): CursorCodec<BrowsePosition> {
  if (!sort) return { encode: encodeBrowseCursor, decode: decodeBrowseCursor };
  const text = textCursors(sort);
  return {
    encode: (position) => text.encode({ key: position.at, id: position.id }),
    decode: (cursor) => {
      try {
        const position = text.decode(cursor);
        return position && { at: position.key, id: position.id };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The clients list of the console (read permission `Clients.Read`, like `GET /clients`): newest
 * first, searched by name, contact or client id, filtered by state, API and expiring secrets,
 * keyset-paged both ways so the last page costs what the first does.
 */
@Injectable()
export class ClientBrowseService {
  constructor(
    private readonly browser: ClientBrowseRepository,
    private readonly clients: ClientRepository,
  ) {}

  async browse(
    tenantId: string,
    filter: ClientBrowseFilter,
    size = DEFAULT_PAGE_SIZE,
  ): Promise<BrowsePage<ClientSummary>> {
    const sort = filter.sort && filter.sort.by in CLIENT_SORT_COLUMNS ? filter.sort : undefined;
    const cursors = browseCursors(sort);
    const query = {
      search: filter.search?.trim() || undefined,
      state: filter.state,
      apiId: filter.apiId && isUUID(filter.apiId) ? filter.apiId : undefined,
      expiringSecrets: filter.expiringSecrets,
      expiredHandovers: filter.expiredHandovers,
      sort,
    };
    // In the list's order, after a cursor are older clients, before it newer ones.
    const fetch: KeysetFetch<ClientBrowseRow, BrowsePosition> = ({ after, before, take }) =>
      this.browser.browse(tenantId, { ...query, older: after, newer: before, take });
    // A `before` the list did not issue is as if absent (the list then goes on from `after`).
    const request = cursors.decode(filter.before) ? { before: filter.before, limit: size } : { cursor: filter.after, limit: size };
    const keyset = { fetch, position: (row: ClientBrowseRow) => ({ at: row.position, id: row.id }), cursors };
    const page = await twoWayPage(request, keyset, (row) => row);
    const granted = await this.clients.grantedScopes(page.items.map((row) => row.id));
    const items = page.items.map((row) =>
      toSummary(
        row,
        granted.filter((g) => g.apiClientId === row.id).map((g) => g.scope),
      ),
    );
    return { items, newer: page.prevCursor ?? undefined, older: page.nextCursor ?? undefined };
  }
}

function toSummary(row: ClientBrowseRow, scopes: string[]): ClientSummary {
  return {
    clientId: row.clientId,
    displayName: row.displayName,
    state: row.state,
    contactEmail: row.contactEmail,
    ownerUserId: row.ownerUserId,
    scopes,
    soonestSecretExpiry: row.soonestSecretExpiry ? new Date(row.soonestSecretExpiry) : null,
  };
}
