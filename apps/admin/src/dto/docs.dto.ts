import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional, SingleLine } from './decorators.js';

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const MAX_BODY = 50_000;

export class CreateDocSectionDto {
  @ApiProperty({ maxLength: 64, pattern: SLUG.source, example: 'orders-api' })
  @IsString()
  @MaxLength(64)
  @Matches(SLUG, { message: 'slug must be lower-case letters, digits and inner hyphens' })
  slug: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  title: string;

  @ApiProperty({ maxLength: MAX_BODY, description: 'Markdown' })
  @IsString()
  @MaxLength(MAX_BODY)
  body: string;
}

export class UpdateDocSectionDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  title?: string;

  @ApiPropertyOptional({ maxLength: MAX_BODY, description: 'Markdown' })
  @Optional()
  @IsString()
  @MaxLength(MAX_BODY)
  body?: string;
}
