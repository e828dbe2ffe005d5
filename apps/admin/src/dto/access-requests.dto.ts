import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { isSingleAddress } from '@gatehouse/mail';
import {
  ACCESS_REQUEST_STATUSES,
  type AccessRequestStatus,
  EMAIL_MAX,
  NAME_MAX,
  type RequestField,
  TEXT_MAX,
  checkNote,
  checkRequestField,
} from '@gatehouse/requests';
import { SLUG } from './docs.dto.js';
import { PageQueryDto } from './page.dto.js';

/** The field rule the public form applies too, with the same message. */
function RequestRule(field: RequestField): PropertyDecorator {
  return ValidateBy({
    name: 'accessRequestField',
    validator: {
      validate: (value: unknown) => checkRequestField(field, value) === null,
      defaultMessage: () => checkRequestField(field, undefined) ?? '',
    },
  });
}

function NoteRule(required: boolean): PropertyDecorator {
  return ValidateBy({
    name: 'decisionNote',
    validator: {
      validate: (value: unknown) => checkNote(value, required) === null,
      defaultMessage: () => checkNote(undefined, true) ?? '',
    },
  });
}

/** Exactly one plain address: what the outbox accepts (no CR/LF, no list, no display name). */
function SingleAddress(): PropertyDecorator {
  return ValidateBy({
    name: 'singleAddress',
    validator: {
      validate: (value: unknown) => isSingleAddress(value),
      defaultMessage: () => '$property must be exactly one plain email address',
    },
  });
}

export class AccountPartDto {
  @ApiProperty({ maxLength: TEXT_MAX, example: 'Orders API guide and the onboarding section' })
  @RequestRule('account.documentation')
  documentation: string;

  @ApiProperty({ maxLength: TEXT_MAX, example: 'I build our integration with the Orders API.' })
  @RequestRule('account.reason')
  reason: string;
}

export class ApiPartDto {
  @ApiProperty({ maxLength: NAME_MAX, example: 'Orders sync' })
  @RequestRule('api.systemName')
  systemName: string;

  @ApiProperty({ maxLength: EMAIL_MAX, example: 'ops@partner.example' })
  @RequestRule('api.technicalContactEmail')
  technicalContactEmail: string;

  @ApiProperty({ maxLength: TEXT_MAX, example: 'Reads new orders every five minutes.' })
  @RequestRule('api.purpose')
  purpose: string;
}

export class FileAccessRequestDto {
  @ApiProperty({ maxLength: NAME_MAX, example: 'Pat Partner' })
  @RequestRule('requesterName')
  requesterName: string;

  @ApiProperty({ maxLength: EMAIL_MAX, example: 'pat@partner.example' })
  @RequestRule('requesterEmail')
  requesterEmail: string;

  @ApiProperty({ maxLength: NAME_MAX, example: 'Partner Ltd' })
  @RequestRule('organisation')
  organisation: string;

  @ApiPropertyOptional({ type: AccountPartDto, description: 'A personal account (give it, `api`, or both)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AccountPartDto)
  account?: AccountPartDto;

  @ApiPropertyOptional({ type: ApiPartDto, description: 'API access for a system (give it, `account`, or both)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ApiPartDto)
  api?: ApiPartDto;
}

export class AccessRequestQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ACCESS_REQUEST_STATUSES })
  @IsOptional()
  @IsIn(ACCESS_REQUEST_STATUSES)
  status?: AccessRequestStatus;
}

export class ApproveAccessRequestDto {
  @ApiPropertyOptional({ maxLength: TEXT_MAX, example: 'Welcome aboard.', description: 'Shown to the requester' })
  @IsOptional()
  @NoteRule(false)
  note?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 50,
    example: ['orders-api'],
    description: 'Documentation sections the new user is invited to (account requests only)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @Matches(SLUG, { each: true, message: 'each section must be a slug' })
  sections?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 720, default: 168, description: 'Validity of that invitation' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(720)
  expiresInHours?: number;
}

export class RejectAccessRequestDto {
  @ApiProperty({
    maxLength: TEXT_MAX,
    example: 'Please ask through your company account manager.',
    description: 'Mailed to the requester',
  })
  @NoteRule(true)
  note: string;
}

export class CreateHandoverDto {
  @ApiPropertyOptional({
    maxLength: EMAIL_MAX,
    example: 'ops@partner.example',
    description: "Defaults to the client's contact",
  })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX)
  @SingleAddress()
  recipientEmail?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 168, default: 72 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(168)
  expiresInHours?: number;
}

/** Sending an expired handover again: to the same recipient; only its lifetime may be chosen. */
export class ResendHandoverDto extends PickType(CreateHandoverDto, ['expiresInHours'] as const) {}
