import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI shapes of the answers (the services return plain views of the same shape). */
export class UserResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() username: string;
  @ApiProperty() email: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: [String] }) roles: string[];
  @ApiProperty({ enum: ['active', 'disabled'] }) status: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The partner organisation the person belongs to' }) organisationId: string | null;
  @ApiProperty() mustChangePassword: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lockedUntil: string | null;
  @ApiProperty({ minimum: 0, description: 'Failed sign-ins in a row (what locks the account)' }) failedSignIns: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last sign-in with the right password' })
  lastSignInAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ description: 'A one-time password, only in the answer that creates it (password or mode "generate"): shown once' })
  initialPassword?: string;
}

export class ApiScopeResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() value: string;
  @ApiProperty() description: string;
}

export class ProtectedApiResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) appId: string;
  @ApiProperty() identifier: string;
  @ApiProperty() displayName: string;
  @ApiProperty() builtIn: boolean;
  @ApiProperty({ enum: [1, 2] }) accessTokenVersion: number;
  @ApiProperty({ enum: ['JWT', 'at+jwt'], description: 'The `typ` of its access tokens' }) accessTokenTyp: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: [ApiScopeResponse] }) scopes: ApiScopeResponse[];
}

export class ClientResponse {
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty({ format: 'uuid', description: 'The object id: `sub` and `oid` of the client’s tokens' }) objectId: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: ['awaiting_scopes', 'active', 'disabled'] }) state: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) ownerUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) contactEmail: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The partner organisation the client belongs to' }) organisationId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: [String] }) scopes: string[];
  @ApiProperty({ type: [String], nullable: true, description: 'CIDRs its token requests may come from; null: anywhere' })
  allowedSourceRanges: string[] | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Tokens per hour, counted by each identity replica; null: no quota' })
  tokensPerHour: number | null;
  @ApiProperty({
    type: () => [ScopeGrantResponse],
    required: false,
    description: 'Each granted scope with its last use (in `GET /clients/{clientId}` only; `scopes` keeps its list of names)',
  })
  scopeGrants?: ScopeGrantResponse[];
}

export class ScopeGrantResponse {
  @ApiProperty({ example: 'api://orders/Orders.Read' }) scope: string;
  @ApiProperty({ format: 'date-time' }) grantedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a token last carried it, to the minute; null: never' })
  lastUsedAt: string | null;
  @ApiProperty({ description: 'No token carried it for 90 days (or never, and it was granted over 90 days ago): a candidate for removal' })
  unused: boolean;
}

export class UnusedScopesRemovedResponse {
  @ApiProperty({ type: [String], description: 'The scopes taken away; empty when none was unused (nothing changed)' })
  removed: string[];
  @ApiProperty({ type: [String] }) scopes: string[];
  @ApiProperty({ enum: ['awaiting_scopes', 'active', 'disabled'] }) state: string;
}

export class ScopesResponse {
  @ApiProperty({ type: [String] }) scopes: string[];
  @ApiProperty({ enum: ['awaiting_scopes', 'active', 'disabled'] }) state: string;
}

export class SecretResponse {
  @ApiProperty({ format: 'uuid' }) keyId: string;
  @ApiProperty() hint: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a token was last issued with it, to the minute (written by each identity replica at most a minute later); null: never' })
  lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The source address of that last use (as TRUST_PROXY makes it)' })
  lastUsedFrom: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was disabled as stale (the credential policy’s disableStaleCredentials): token requests with it fail until it is enabled again; null: enabled' })
  disabledAt: string | null;
}

export class IssuedSecretResponse {
  @ApiProperty({ format: 'uuid' }) keyId: string;
  @ApiProperty() hint: string;
  @ApiProperty({ description: 'Shown once, never again' }) secretText: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty() displayName: string;
}

export class TenantResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: ['RS256', 'ES256'] }) signingAlgorithm: string;
  @ApiProperty() accessTokenLifetimeSeconds: number;
  @ApiProperty() extAccessTokenLifetimeSeconds: number;
  @ApiProperty({ enum: ['extended', 'entra'], description: 'entra: token requests may name only `{resource}/.default`, as Entra allows' })
  scopeRequests: string;
}

export class AuditActorResponse {
  @ApiProperty({ enum: ['user', 'client', 'system'] }) type: string;
  @ApiProperty({ type: String, nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) clientId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Who acted, as named when they acted; null for the system' })
  name: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The acting person's username when they acted" })
  username: string | null;
}

export class AuditEventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ type: AuditActorResponse }) actor: AuditActorResponse;
  @ApiProperty() action: string;
  @ApiProperty() targetType: string;
  @ApiProperty({ type: String, nullable: true }) targetId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The target's name when the event was written" })
  targetName: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What changed (before/after where the write knew them); secrets redacted' })
  details: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) requestId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Address the change came from; null for the system and older events' })
  sourceAddress: string | null;
}

function pageOf<T>(item: new () => T, name: string) {
  class PageResponse {
    @ApiProperty({ type: [item] }) items: T[];
    @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  }
  Object.defineProperty(PageResponse, 'name', { value: name });
  return PageResponse;
}

export const UserPage = pageOf(UserResponse, 'UserPage');
export const ApiPage = pageOf(ProtectedApiResponse, 'ApiPage');
export const ClientPage = pageOf(ClientResponse, 'ClientPage');
/** A page of a list paged both ways: `nextCursor` (pass as `cursor`) onwards, `prevCursor` (pass as `before`) back. */
export function twoWayPageOf<T>(item: new () => T, name: string) {
  class TwoWayPageResponse {
    @ApiProperty({ type: [item] }) items: T[];
    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last' })
    nextCursor: string | null;
    @ApiProperty({ type: String, nullable: true, description: 'Pass as `before` for the previous page; null on the first' })
    prevCursor: string | null;
  }
  Object.defineProperty(TwoWayPageResponse, 'name', { value: name });
  return TwoWayPageResponse;
}

/** Newest first: the next page holds older events, the previous page newer ones. */
export const AuditEventPage = twoWayPageOf(AuditEventResponse, 'AuditEventPage');
