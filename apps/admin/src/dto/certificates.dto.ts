import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Optional, SingleLine } from './decorators.js';

export class AddCertificateDto {
  @ApiProperty({ description: 'One X.509 certificate in PEM (RSA ≥ 2048 bits or EC P-256); never a private key', maxLength: 16384 })
  @IsString()
  @MinLength(1)
  @MaxLength(16384)
  certificate: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MaxLength(200)
  @SingleLine()
  displayName?: string;
}

export class CertificateResponse {
  @ApiProperty({ format: 'uuid' }) keyId: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ description: 'SHA-1 of the certificate, upper-case hex (as Entra shows it)' }) thumbprint: string;
  @ApiProperty({ description: 'base64url SHA-1 thumbprint: the x5t assertion header' }) x5t: string;
  @ApiProperty({ description: 'base64url SHA-256 thumbprint: the x5t#S256 assertion header' }) x5tS256: string;
  @ApiProperty() subject: string;
  @ApiProperty({ format: 'date-time' }) notBefore: string;
  @ApiProperty({ format: 'date-time' }) notAfter: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a token was last issued with it, to the minute (written by each identity replica at most a minute later); null: never' })
  lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The source address of that last use (as TRUST_PROXY makes it)' })
  lastUsedFrom: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was disabled as stale (the credential policy’s disableStaleCredentials): token requests with it fail until it is enabled again; null: enabled' })
  disabledAt: string | null;
}
