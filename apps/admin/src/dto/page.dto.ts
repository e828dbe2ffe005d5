import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional, QueryInt } from './decorators.js';

/** `?limit=&cursor=` of every list. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @Optional()
  @QueryInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from the previous page' })
  @Optional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
