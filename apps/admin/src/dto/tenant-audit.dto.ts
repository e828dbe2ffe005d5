import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SCOPE_REQUESTS, SIGNING_ALGORITHMS, type ScopeRequests, type SigningAlgorithm } from '@gatehouse/tenants';
import { Optional, QueryIsoDate, SingleLine } from './decorators.js';
import { TwoWayPageQueryDto } from './page.dto.js';

export class UpdateTenantDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'The name pages and mails call the tenant by ("Acme Logistics"); the slug stays in paths only' })
  @Optional()
  @IsString()
  @SingleLine()
  @MaxLength(200)
  displayName?: string;

  @ApiPropertyOptional({ enum: SIGNING_ALGORITHMS })
  @Optional()
  @IsIn(SIGNING_ALGORITHMS)
  signingAlgorithm?: SigningAlgorithm;

  @ApiPropertyOptional({ minimum: 300, maximum: 86400 })
  @Optional()
  @IsInt()
  @Min(300)
  @Max(86400)
  accessTokenLifetimeSeconds?: number;

  @ApiPropertyOptional({ minimum: 300, maximum: 86400 })
  @Optional()
  @IsInt()
  @Min(300)
  @Max(86400)
  extAccessTokenLifetimeSeconds?: number;

  @ApiPropertyOptional({
    enum: SCOPE_REQUESTS,
    description: 'extended (default): `{resource}/.default` or narrower scopes; entra: only `.default`, refused otherwise as Entra refuses it (AADSTS1002012)',
  })
  @Optional()
  @IsIn(SCOPE_REQUESTS)
  scopeRequests?: ScopeRequests;
}

const ACTION = /^[a-z0-9._*-]+$/;

/** Newest first: `cursor` pages to older events, `before` to newer ones. */
export class AuditQueryDto extends TwoWayPageQueryDto {
  @ApiPropertyOptional({ description: 'The actor: a user id or client id, or a name (display name, username or client name; up to 20 matches)' })
  @Optional()
  @IsString()
  @MaxLength(200)
  actor?: string;

  @ApiPropertyOptional({ description: 'Exact action, or a prefix ending in .*', example: 'client.secret.*', pattern: ACTION.source })
  @Optional()
  @IsString()
  @MaxLength(100)
  @Matches(ACTION, { message: 'action is a dotted name, optionally ending in .*' })
  action?: string;

  @ApiPropertyOptional({ description: 'The target: an id (user, client, API, …), or the name of a user, client, API or documentation section (up to 20 matches)' })
  @Optional()
  @IsString()
  @MaxLength(200)
  target?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'ISO 8601; events at or after it' })
  @Optional()
  @QueryIsoDate()
  since?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'ISO 8601; events strictly before it' })
  @Optional()
  @QueryIsoDate()
  until?: Date;
}
