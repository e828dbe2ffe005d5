import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional, SingleLine } from './decorators.js';

const IDENTIFIER = /^(api|https):\/\/\S+$/;

export class CreateApiDto {
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
