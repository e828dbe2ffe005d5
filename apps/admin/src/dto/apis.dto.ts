import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { SingleLine } from './decorators.js';

export class CreateApiDto {
  @ApiProperty({ example: 'api://orders', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  @Matches(/^(api|https):\/\/\S+$/, { message: 'identifier must be an api://… or https://… URI' })
  identifier: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName: string;

  @ApiPropertyOptional({ enum: [1, 2], default: 2, description: "Entra's requestedAccessTokenVersion: 1 = aud is the identifier URI, v1 claims and issuer" })
  @IsOptional()
  @IsIn([1, 2])
  accessTokenVersion?: 1 | 2;
}

export class UpdateApiDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName?: string;

  @ApiPropertyOptional({ enum: [1, 2] })
  @IsOptional()
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
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @SingleLine()
  description?: string;
}
