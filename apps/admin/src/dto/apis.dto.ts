import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ACCESS_TOKEN_TYPS, type AccessTokenTyp } from '@gatehouse/apis';
import { Optional, SingleLine } from './decorators.js';

class TokenTypDto {
  @ApiPropertyOptional({ enum: ACCESS_TOKEN_TYPS, default: 'JWT', description: 'The `typ` header of its access tokens: JWT as Entra\'s (what Spring Security and Nimbus accept by default), or RFC 9068\'s at+jwt' })
  @Optional()
  @IsIn(ACCESS_TOKEN_TYPS)
  accessTokenTyp?: AccessTokenTyp;
}

const IDENTIFIER = /^(api|https):\/\/\S+$/;

export class CreateApiDto extends TokenTypDto {
  @ApiProperty({ example: 'api://orders', maxLength: 200, pattern: IDENTIFIER.source })
  @IsString()
  @MaxLength(200)
  @Matches(IDENTIFIER, { message: 'identifier must be an api://… or https://… URI' })
  identifier: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName: string;

  @ApiPropertyOptional({ enum: [1, 2], default: 2, description: "Entra's requestedAccessTokenVersion: 1 = aud is the identifier URI, v1 claims and issuer" })
  @Optional()
  @IsIn([1, 2])
  accessTokenVersion?: 1 | 2;
}

export class UpdateApiDto extends TokenTypDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName?: string;

  @ApiPropertyOptional({ enum: [1, 2] })
  @Optional()
  @IsIn([1, 2])
  accessTokenVersion?: 1 | 2;
}

export class CreateScopeDto {
  @ApiProperty({ example: 'Orders.Read', pattern: '^[A-Za-z0-9._-]{1,100}$' })
  @IsString()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: 'value must be 1 to 100 of A-Z a-z 0-9 . _ -' })
  value: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @Optional()
  @IsString()
  @MaxLength(500)
  @SingleLine()
  description?: string;
}
