import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { EMAIL_ORDERS, EMAIL_STATUSES, type EmailOrder, type EmailStatus } from '@gatehouse/mail';
import { INVITATION_STATUSES, type InvitationStatus } from '@gatehouse/invitations';
import { SLUG } from './docs.dto.js';
import { PageQueryDto, TwoWayPageQueryDto } from './page.dto.js';
import { Optional } from './decorators.js';

/** How long the link is valid, from now: hours, or minutes for a short-lived one (not both). */
export class InvitationLifetimeDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 720, default: 168, description: 'Validity of the link in hours (or give expiresInMinutes).' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(720)
  expiresInHours?: number;

  @ApiPropertyOptional({ minimum: 5, maximum: 43200, description: 'Validity in minutes, for a short-lived link (instead of expiresInHours).' })
  @Optional()
  @IsInt()
  @Min(5)
  @Max(43200)
  expiresInMinutes?: number;
}

export class CreateInvitationDto extends InvitationLifetimeDto {
  @ApiProperty({ format: 'uuid' })
  @IsString()
  @MaxLength(36)
  @IsUUID()
  userId: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: 50, example: ['orders-api'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @Matches(SLUG, { each: true, message: 'each section must be a slug' })
  sections: string[];
}

export class ResendInvitationDto extends InvitationLifetimeDto {}

export class InvitationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: INVITATION_STATUSES })
  @Optional()
  @IsIn(INVITATION_STATUSES)
  status?: InvitationStatus;

  @ApiPropertyOptional({ description: 'Only invitations that open this documentation section (slug)', pattern: SLUG.source })
  @Optional()
  @IsString()
  @Matches(SLUG, { message: 'section must be a section slug' })
  section?: string;
}

export class EmailQueryDto extends TwoWayPageQueryDto {
  @ApiPropertyOptional({ enum: EMAIL_STATUSES })
  @Optional()
  @IsIn(EMAIL_STATUSES)
  status?: EmailStatus;

  @ApiPropertyOptional({ enum: EMAIL_ORDERS, default: 'oldest', description: 'As queued (oldest first) or newest first' })
  @Optional()
  @IsIn(EMAIL_ORDERS)
  order?: EmailOrder;
}
