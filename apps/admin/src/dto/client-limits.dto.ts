import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_SOURCE_RANGES, MAX_TOKENS_PER_HOUR } from '@gatehouse/clients';

const leftOutOrNull = (_o: object, value: unknown) => value !== undefined && value !== null;

/** PATCH /clients/{clientId}: a field left out stays as it is; null removes the limit. */
export class UpdateClientDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_SOURCE_RANGES,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description:
      'IPv4 and IPv6 CIDRs (a bare address is one host) its token requests may come from, as the identity app sees the address through TRUST_PROXY; null or [] — anywhere. From elsewhere: 400 invalid_client, AADSTS53003.',
  })
  @ValidateIf(leftOutOrNull)
  @IsArray()
  @ArrayMaxSize(MAX_SOURCE_RANGES)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  allowedSourceRanges?: string[] | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_TOKENS_PER_HOUR,
    description: 'Tokens it may get per hour, counted by each identity replica; beyond: 429 with Retry-After. null — no quota.',
  })
  @ValidateIf(leftOutOrNull)
  @IsInt()
  @Min(1)
  @Max(MAX_TOKENS_PER_HOUR)
  tokensPerHour?: number | null;
}
