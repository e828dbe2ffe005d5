import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { SingleLine } from './decorators.js';
import type { ClientState } from '@gatehouse/clients';
import { PageQueryDto } from './page.dto.js';

const STATES: ClientState[] = ['awaiting_scopes', 'active', 'disabled'];

export class CreateClientDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;

  @ApiPropertyOptional({ maxLength: 254 })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  contactEmail?: string;
}

export class ClientQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STATES })
  @IsOptional()
  @IsIn(STATES)
  state?: ClientState;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;
}

export class SetScopesDto {
  @ApiProperty({ type: [String], example: ['api://orders/Orders.Read'] })
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(400, { each: true })
  scopes: string[];
}

export class IssueSecretDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @SingleLine()
  displayName?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 730, default: 180 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(730)
  expiresInDays?: number;
}
