import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, Max, Min, ValidateIf } from 'class-validator';
import { CREDENTIAL_KINDS, type CredentialKind, MAX_CERTIFICATE_POLICY_DAYS, MAX_SECRET_DAYS, MAX_STALE_CREDENTIAL_DAYS } from '@gatehouse/clients';
import { Optional } from './decorators.js';

/** The whole policy; a field left out takes its default (effectiveFrom: now). */
export class PutCredentialPolicyDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_SECRET_DAYS, default: MAX_SECRET_DAYS, description: 'The longest a new secret may live' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_SECRET_DAYS)
  maxSecretLifetimeDays?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_CERTIFICATE_POLICY_DAYS,
    description: 'The longest validity (notAfter − notBefore) of a new certificate; null: any',
  })
  @ValidateIf((_o: object, value: unknown) => value !== undefined && value !== null)
  @IsInt()
  @Min(1)
  @Max(MAX_CERTIFICATE_POLICY_DAYS)
  maxCertificateLifetimeDays?: number | null;

  @ApiPropertyOptional({ enum: CREDENTIAL_KINDS, isArray: true, default: CREDENTIAL_KINDS, description: 'The kinds of credential that may be added (at least one)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsIn(CREDENTIAL_KINDS, { each: true, message: `each value in allowedCredentialKinds must be one of ${CREDENTIAL_KINDS.join(', ')}` })
  allowedCredentialKinds?: CredentialKind[];

  @ApiPropertyOptional({ format: 'date-time', description: 'From when new credentials are refused outside the policy (default: now); older credentials are flagged, never broken' })
  @Optional()
  @IsISO8601({ strict: true }, { message: 'effectiveFrom must be a date and time in ISO 8601 (2026-12-01T00:00:00Z)' })
  effectiveFrom?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_STALE_CREDENTIAL_DAYS, default: 90, description: 'A credential unused this long is stale' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_STALE_CREDENTIAL_DAYS)
  staleCredentialDays?: number;

  @ApiPropertyOptional({ default: false, description: 'Disable stale credentials (reversible, audited)' })
  @Optional()
  @IsBoolean()
  disableStaleCredentials?: boolean;
}

export class CredentialPolicyResponse {
  @ApiProperty({ minimum: 1, maximum: MAX_SECRET_DAYS }) maxSecretLifetimeDays: number;
  @ApiProperty({ type: Number, nullable: true, minimum: 1, maximum: MAX_CERTIFICATE_POLICY_DAYS }) maxCertificateLifetimeDays: number | null;
  @ApiProperty({ enum: CREDENTIAL_KINDS, isArray: true }) allowedCredentialKinds: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: the tenant never set a policy' })
  effectiveFrom: string | null;
  @ApiProperty() staleCredentialDays: number;
  @ApiProperty() disableStaleCredentials: boolean;
}
