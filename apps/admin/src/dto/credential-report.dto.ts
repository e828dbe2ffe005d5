import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, Max, Min } from 'class-validator';
import {
  CREDENTIAL_KINDS,
  CREDENTIAL_STATES,
  type CredentialKindName,
  type CredentialState,
  MAX_REPORT_DAYS,
} from '@gatehouse/clients';
import { Optional, QueryInt } from './decorators.js';
import { PageQueryDto } from './page.dto.js';

/** `GET /credential-report` filters (all optional; together they must all hold). */
export class CredentialReportQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CREDENTIAL_KINDS })
  @Optional()
  @IsIn(CREDENTIAL_KINDS)
  kind?: CredentialKindName;

  @ApiPropertyOptional({ enum: CREDENTIAL_STATES })
  @Optional()
  @IsIn(CREDENTIAL_STATES)
  state?: CredentialState;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_REPORT_DAYS, description: 'Not revoked, expiring (or expired) within this many days' })
  @Optional()
  @QueryInt()
  @Min(0)
  @Max(MAX_REPORT_DAYS)
  expiringWithinDays?: number;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: only credentials no token was ever issued with' })
  @Optional()
  @IsIn(['true', 'false'])
  neverUsed?: 'true' | 'false';

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_REPORT_DAYS,
    description: 'No token for this many days: last used that long ago, or never and created that long ago',
  })
  @Optional()
  @QueryInt()
  @Min(1)
  @Max(MAX_REPORT_DAYS)
  unusedForDays?: number;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: only live credentials (not revoked, not expired) outside the tenant’s credential policy, as the Overview counts them',
  })
  @Optional()
  @IsIn(['true', 'false'])
  outsidePolicy?: 'true' | 'false';
}

export class CredentialReportEntryResponse {
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty() clientName: string;
  @ApiProperty({ enum: CREDENTIAL_KINDS }) kind: string;
  @ApiProperty({ format: 'uuid', description: 'The secret’s or certificate’s key id; the federated credential’s id' }) keyId: string;
  @ApiProperty({ description: 'The secret’s description, the certificate’s display name, the federated credential’s name' })
  displayName: string;
  @ApiPropertyOptional({ description: 'A secret’s first characters' }) hint?: string;
  @ApiPropertyOptional({ description: 'A certificate’s SHA-1 thumbprint' }) thumbprint?: string;
  @ApiPropertyOptional({ description: 'A federated credential’s issuer' }) issuer?: string;
  @ApiPropertyOptional({ description: 'A federated credential’s subject (or claims expression)' }) subject?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null for a federated credential' })
  expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'To the minute; null: never used' })
  lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) lastUsedFrom: string | null;
  @ApiProperty({ enum: CREDENTIAL_STATES, description: '`disabled`: disabled as stale (see disabledAt), reversible' }) state: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was disabled as stale; null: not disabled' })
  disabledAt: string | null;
}

export class CredentialReportPage {
  @ApiProperty({ type: [CredentialReportEntryResponse] }) items: CredentialReportEntryResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last' })
  nextCursor: string | null;
}

/** The query as the report service takes it. */
export function reportFilterOf(query: CredentialReportQueryDto) {
  return {
    kind: query.kind,
    state: query.state,
    expiringWithinDays: query.expiringWithinDays,
    neverUsed: query.neverUsed === 'true' ? true : undefined,
    unusedForDays: query.unusedForDays,
    outsidePolicy: query.outsidePolicy === 'true' ? true : undefined,
  };
}
