import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmpty, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
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

/** `?limit=&cursor=&before=` of a list paged both ways (`cursor` onwards, `before` back). */
export class TwoWayPageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Opaque cursor (`prevCursor` of a page): the page just before it in list order. Not together with `cursor`.',
  })
  @ValidateIf((query: TwoWayPageQueryDto) => query.cursor !== undefined && query.before !== undefined)
  @IsEmpty({ message: 'before cannot be combined with cursor: pass one of them' })
  @Optional()
  @IsString()
  @MaxLength(200)
  before?: string;
}
