import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Optional, SingleLine } from './decorators.js';
import { OrganisationRef } from './organisations.dto.js';
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
  @Optional()
  @IsUUID()
  ownerUserId?: string;

  @ApiPropertyOptional({ maxLength: 254 })
  @Optional()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  contactEmail?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The partner organisation the client belongs to (an active one)' })
  @Optional()
  @OrganisationRef()
  organisationId?: string | null;
}

export class ClientQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STATES })
  @Optional()
  @IsIn(STATES)
  state?: ClientState;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
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
  @Optional()
  @IsString()
  @MaxLength(200)
  @SingleLine()
  displayName?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 730, default: 180 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(730)
  expiresInDays?: number;
}
