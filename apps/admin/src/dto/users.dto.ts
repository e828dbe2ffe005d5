import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OrganisationRef } from './organisations.dto.js';
import { Optional, SingleLine } from './decorators.js';
import { ROLES, type Role } from '@gatehouse/accounts';
import { DEFAULT_PASSWORD_SETUP, type InitialPasswordMode, type UserStatusFilter } from '@gatehouse/accounts';
import { PageQueryDto } from './page.dto.js';

const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
const PASSWORD_MODES: InitialPasswordMode[] = ['generate', 'activation-link'];
const STATUS_FILTERS: UserStatusFilter[] = ['active', 'disabled', 'locked'];
const ORDERS = ['oldest', 'newest'] as const;

export class CreateUserDto {
  @ApiProperty({ maxLength: 64, pattern: USERNAME.source })
  @IsString()
  @MaxLength(64)
  @Matches(USERNAME, { message: 'username may hold letters, digits and . _ @ - only' })
  username: string;

  @ApiProperty({ maxLength: 254 })
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName: string;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, description: 'Administrator only' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(4)
  @IsIn(ROLES, { each: true })
  roles?: Role[];

  @ApiPropertyOptional({
    enum: PASSWORD_MODES,
    default: DEFAULT_PASSWORD_SETUP,
    description:
      'How the person gets a password. "activation-link" (the default): a link to choose one is mailed at once (valid 24 h). "generate": a one-time password is returned once, in `initialPassword`, to be changed at the first login.',
  })
  @Optional()
  @IsIn(PASSWORD_MODES)
  password?: InitialPasswordMode;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The partner organisation the person belongs to (an active one)' })
  @Optional()
  @OrganisationRef()
  organisationId?: string | null;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ maxLength: 254 })
  @Optional()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @SingleLine()
  displayName?: string;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, description: 'Administrator only' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(4)
  @IsIn(ROLES, { each: true })
  roles?: Role[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Puts the person into an active organisation, or out of theirs with null' })
  @Optional()
  @OrganisationRef()
  organisationId?: string | null;
}

export class UserQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    maxLength: 100,
    example: 'pat',
    description: 'Users whose username, email or display name starts with this text, any case (an index range scan per column).',
  })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @SingleLine()
  search?: string;

  @ApiPropertyOptional({ description: 'Exact username, any case' })
  @Optional()
  @IsString()
  @MaxLength(64)
  username?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ enum: STATUS_FILTERS, description: '`locked`: active but locked after failed sign-ins, until `lockedUntil`' })
  @Optional()
  @IsIn(STATUS_FILTERS)
  status?: UserStatusFilter;

  @ApiPropertyOptional({ enum: ROLES })
  @Optional()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ enum: ORDERS, default: 'oldest', description: 'Creation order of the list' })
  @Optional()
  @IsIn(ORDERS)
  order?: (typeof ORDERS)[number];
}
