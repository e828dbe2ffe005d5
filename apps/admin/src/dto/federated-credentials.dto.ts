import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MAX_CLAIMS_EXPRESSION_LENGTH, MAX_FEDERATED_TEXT, TOKEN_EXCHANGE_AUDIENCE } from '@gatehouse/clients';
import { Optional, SingleLine } from './decorators.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$/;

export class ClaimsMatchingExpressionDto {
  @ApiProperty({
    maxLength: MAX_CLAIMS_EXPRESSION_LENGTH,
    example: "claims['sub'] matches 'repo:contoso/orders:ref:refs/heads/*'",
    description: "Clauses `claims['<claim>'] matches|eq '<text>'` joined by ` and ` (`matches`: `*` any run, `?` one character)",
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_CLAIMS_EXPRESSION_LENGTH)
  @SingleLine()
  value: string;

  @ApiProperty({ enum: [1], description: 'Always 1 (the only version of the language)' })
  @IsIn([1], { message: 'languageVersion must be 1' })
  languageVersion: number;
}

/** The parts of a federated credential that say which external tokens it accepts. */
class FederatedMatchDto {
  @ApiPropertyOptional({ maxLength: MAX_FEDERATED_TEXT, description: 'The exact `sub` of the external token (give it or claimsMatchingExpression)', example: 'repo:contoso/orders:environment:production' })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FEDERATED_TEXT)
  @SingleLine()
  subject?: string;

  @ApiPropertyOptional({ type: ClaimsMatchingExpressionDto, description: "Entra's flexible form (give it or subject)" })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => ClaimsMatchingExpressionDto)
  claimsMatchingExpression?: ClaimsMatchingExpressionDto;

  @ApiPropertyOptional({ type: [String], default: [TOKEN_EXCHANGE_AUDIENCE], maxItems: 5, description: 'One of them must be in the external token’s `aud`' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(MAX_FEDERATED_TEXT, { each: true })
  @SingleLine({ each: true })
  audiences?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @Optional()
  @IsString()
  @MaxLength(500)
  @SingleLine()
  description?: string;
}

export class AddFederatedCredentialDto extends FederatedMatchDto {
  @ApiProperty({ maxLength: 120, pattern: NAME.source, example: 'github-production', description: 'Unique per client; cannot be changed' })
  @IsString()
  @Matches(NAME, { message: 'name is 1 to 120 of A-Z a-z 0-9 _ . - and starts with a letter or digit' })
  name: string;

  @ApiProperty({ maxLength: MAX_FEDERATED_TEXT, example: 'https://token.actions.githubusercontent.com', description: 'The `iss` of the external tokens, exactly (https)' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FEDERATED_TEXT)
  @SingleLine()
  issuer: string;
}

export class UpdateFederatedCredentialDto extends FederatedMatchDto {
  @ApiPropertyOptional({ maxLength: MAX_FEDERATED_TEXT })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FEDERATED_TEXT)
  @SingleLine()
  issuer?: string;
}

export class ClaimsMatchingExpressionResponse {
  @ApiProperty() value: string;
  @ApiProperty({ enum: [1] }) languageVersion: number;
}

export class FederatedCredentialResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() issuer: string;
  @ApiProperty({ type: String, nullable: true }) subject: string | null;
  @ApiProperty({ type: ClaimsMatchingExpressionResponse, nullable: true }) claimsMatchingExpression: ClaimsMatchingExpressionResponse | null;
  @ApiProperty({ type: [String] }) audiences: string[];
  @ApiProperty() description: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a token was last issued with it, to the minute (written by each identity replica at most a minute later); null: never' })
  lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The source address of that last use (as TRUST_PROXY makes it)' })
  lastUsedFrom: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was disabled as stale (the credential policy’s disableStaleCredentials): token requests with it fail until it is enabled again; null: enabled' })
  disabledAt: string | null;
}
