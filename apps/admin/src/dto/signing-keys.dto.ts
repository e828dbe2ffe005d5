import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { SIGNING_ALGORITHMS } from '@gatehouse/tenants';
import { Optional } from './decorators.js';

export class RolloverSigningKeyDto {
  @ApiPropertyOptional({
    default: false,
    description:
      'Take the previous key out of the JWKS at once: every token it signed stops verifying (use when the key leaked). ' +
      'Without it the previous key stays published until its last token expires.',
  })
  @Optional()
  @IsBoolean()
  revokePrevious?: boolean;
}

export class SigningKeyResponse {
  @ApiProperty({ description: 'Key id: the `kid` of the JWKS and of token headers' }) kid: string;
  @ApiProperty({ enum: SIGNING_ALGORITHMS }) algorithm: string;
  @ApiProperty({
    enum: ['next', 'active', 'retired', 'revoked'],
    description: 'next: published, signs after the next rollover; active: signs; retired: published until its last token expires; revoked: out of the JWKS',
  })
  status: string;
  @ApiProperty({ description: 'Whether the JWKS publishes it now' }) published: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) activatedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) retiredAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Retired: published until then; revoked: listed until then' })
  publishedUntil: string | null;
}

export class SigningKeyListResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { RS256: '5b0c…' },
    description: 'The kid that signs, by algorithm (as Keycloak lists a realm\'s keys)',
  })
  active: Record<string, string>;
  @ApiProperty({ type: [SigningKeyResponse], description: 'Every key, newest first' }) keys: SigningKeyResponse[];
}

export class RolloverResponse {
  @ApiProperty({ description: 'The new key, signing from now on' }) kid: string;
  @ApiProperty({ enum: SIGNING_ALGORITHMS }) algorithm: string;
  @ApiProperty({ format: 'date-time' }) activatedAt: string;
  @ApiProperty({ description: 'Whether the previous key was taken out of the JWKS' }) revokedPrevious: boolean;
  @ApiProperty({ type: SigningKeyResponse, nullable: true, description: 'What became of the key that signed before' })
  previous: SigningKeyResponse | null;
}
