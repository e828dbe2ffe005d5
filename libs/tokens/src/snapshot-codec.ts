import type { Role, UserStatus } from '@gatehouse/accounts';
import type { ClientState } from '@gatehouse/clients';
import type { CacheCodec } from './change-aware-cache.js';
import { type ClientSnapshot, NONE, type SecretRow } from './client-credentials.repository.js';

/** What many clients share: the state, the owner's status and roles. */
interface Profile {
  state: ClientState;
  ownerStatus: UserStatus | null;
  ownerRoles: Role[];
}

/** Indexes fit two characters of one byte each. */
const MAX_SHARED = 65_536;
/** Lengths fit one character of one byte; 255 marks an absent owner. */
const MAX_LENGTH = 254;
const NO_OWNER = 255;

/** Values stored once and named by index; full, it names nothing new (the snapshot stays unpacked). */
class SharedValues<T> {
  private readonly values: T[] = [];
  private readonly indexes = new Map<unknown, number>();

  indexOf(identity: unknown, value: T): number {
    const known = this.indexes.get(identity);
    if (known !== undefined) return known;
    if (this.values.length >= MAX_SHARED) return -1;
    this.values.push(value);
    this.indexes.set(identity, this.values.length - 1);
    return this.values.length - 1;
  }

  at(index: number): T {
    return this.values[index]!;
  }
}

/**
 * A client's snapshot as one string of one-byte characters, for the token cache: its ids, its
 * secrets' hashes and ends, and two indexes into values shared by many clients (the profile, the
 * grant map). A cached client is then two strings for the collector (its key and this) instead of
 * about ten objects. Unpacked, it has the shape the repository's snapshots have (one hidden class for
 * the hot path's reads). A snapshot with certificates (its public keys are objects anyway), with
 * limits (its parsed ranges are shared objects), or with anything that does not fit, is kept as it is.
 */
export class SnapshotCodec implements CacheCodec<ClientSnapshot | null> {
  private readonly profiles = new SharedValues<Profile>();
  private readonly grants = new SharedValues<Map<string, readonly string[]>>();

  pack(snapshot: ClientSnapshot | null): unknown {
    if (!snapshot || snapshot.certificates.length > 0 || snapshot.limits !== null) return snapshot;
    const { client } = snapshot;
    const profile = { state: client.state, ownerStatus: client.ownerStatus, ownerRoles: client.ownerRoles };
    const profileIndex = this.profiles.indexOf(
      `${client.state}|${client.ownerStatus}|${client.ownerRoles.join(',')}`,
      profile,
    );
    const grantsIndex = this.grants.indexOf(snapshot.grants, snapshot.grants);
    if (profileIndex < 0 || grantsIndex < 0) return snapshot;
    const parts = [index(profileIndex), index(grantsIndex), field(client.id), field(client.clientId)];
    parts.push(client.ownerUserId === null ? String.fromCharCode(NO_OWNER) : field(client.ownerUserId));
    for (const secret of snapshot.secrets) parts.push(field(secret.hash), field(String(secret.expiresAtMs)));
    return parts.every((part) => part !== '') ? parts.join('') : snapshot;
  }

  unpack(stored: unknown): ClientSnapshot | null {
    if (typeof stored !== 'string') return stored as ClientSnapshot | null;
    const profile = this.profiles.at(readIndex(stored, 0));
    const grants = this.grants.at(readIndex(stored, 2));
    const reader = new FieldReader(stored, 4);
    const id = reader.next();
    const clientId = reader.next();
    const ownerUserId = stored.charCodeAt(reader.at) === NO_OWNER ? reader.skip() : reader.next();
    const secrets: SecretRow[] = [];
    while (reader.at < stored.length) secrets.push({ hash: reader.next(), expiresAtMs: Number(reader.next()) });
    const { state, ownerStatus, ownerRoles } = profile;
    return {
      client: { id, clientId, state, ownerUserId, ownerStatus, ownerRoles },
      secrets,
      certificates: NONE,
      grants,
      limits: null,
    };
  }
}

function index(value: number): string {
  return String.fromCharCode(value >> 8, value & 0xff);
}

function readIndex(packed: string, at: number): number {
  return (packed.charCodeAt(at) << 8) | packed.charCodeAt(at + 1);
}

/** A length-prefixed field; '' when it does not fit (the snapshot then stays unpacked). */
function field(value: string): string {
  return value.length <= MAX_LENGTH ? String.fromCharCode(value.length) + value : '';
}

class FieldReader {
  constructor(
    private readonly packed: string,
    public at: number,
  ) {}

  next(): string {
    const length = this.packed.charCodeAt(this.at);
    const value = this.packed.slice(this.at + 1, this.at + 1 + length);
    this.at += 1 + length;
    return value;
  }

  /** Steps over the absent owner's mark. */
  skip(): null {
    this.at += 1;
    return null;
  }
}
