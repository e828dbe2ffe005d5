import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ORGANISATION_STATES } from '@gatehouse/organisations';
import { Optional } from './decorators.js';
import { PageQueryDto } from './page.dto.js';

/** 1 to 200 characters; the service trims it and refuses one that is only white space. */
const Name = () =>
  applyDecorators(
    IsString(),
    MinLength(1, { message: 'name must not be empty' }),
    MaxLength(200, { message: 'name must be at most 200 characters' }),
  );

export class CreateOrganisationDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme Logistics GmbH', description: 'Trimmed; unique in the tenant whatever the case' })
  @Name()
  name: string;
}

export class UpdateOrganisationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Acme Logistics SE' })
  @Optional()
  @Name()
  name?: string;
}

export class OrganisationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Part of the name, any case', maxLength: 200 })
  @Optional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: ORGANISATION_STATES })
  @Optional()
  @IsIn(ORGANISATION_STATES)
  state?: 'active' | 'offboarded';
}

/** An organisation's id, or `null` (none): what users and clients take as `organisationId`. */
export const OrganisationRef = () =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== null),
    IsUUID('all', { message: 'organisationId must be an organisation id (a UUID) or null' }),
  );

/** Puts a client into an organisation, or out of its one with `null`. */
export class SetOrganisationDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'An active organisation of the tenant, or null for none' })
  @OrganisationRef()
  organisationId: string | null;
}

export class OffboardingCountsResponse {
  @ApiProperty() usersDisabled: number;
  @ApiProperty() clientsDisabled: number;
  @ApiProperty() invitationsRevoked: number;
  @ApiProperty() handoversRevoked: number;
  @ApiProperty() sessionsEnded: number;
}

export class OrganisationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ORGANISATION_STATES }) state: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) offboardedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The person who offboarded it' }) offboardedByUserId: string | null;
  @ApiProperty({ type: OffboardingCountsResponse, nullable: true, description: 'While offboarded: what the offboarding changed (the restore reverses exactly that)' })
  offboarding: OffboardingCountsResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class OrganisationPage {
  @ApiProperty({ type: [OrganisationResponse] }) items: OrganisationResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

class OrganisationPersonResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() username: string;
  @ApiProperty() displayName: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: ['active', 'disabled'] }) status: string;
  @ApiProperty({ type: [String] }) roles: string[];
}

class OrganisationClientResponse {
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: ['awaiting_scopes', 'active', 'disabled'] }) state: string;
  @ApiProperty({ type: String, nullable: true }) contactEmail: string | null;
}

class OrganisationRequestResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() requesterName: string;
  @ApiProperty() requesterEmail: string;
  @ApiProperty() status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class OrganisationHandoverResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty() clientName: string;
  @ApiProperty() recipientEmail: string;
  @ApiProperty({ enum: ['pending', 'revealed', 'expired', 'revoked'] }) status: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

class OrganisationCountsResponse {
  @ApiProperty() people: number;
  @ApiProperty() clients: number;
  @ApiProperty() requests: number;
  @ApiProperty() handovers: number;
}

export class OrganisationDetailResponse extends OrganisationResponse {
  @ApiProperty({ type: [OrganisationPersonResponse], description: 'Its people (the first 100, by name)' }) people: OrganisationPersonResponse[];
  @ApiProperty({ type: [OrganisationClientResponse], description: 'Its clients (the first 100, by name)' }) clients: OrganisationClientResponse[];
  @ApiProperty({ type: [OrganisationRequestResponse], description: 'Access requests that named it (the newest 100)' }) requests: OrganisationRequestResponse[];
  @ApiProperty({ type: [OrganisationHandoverResponse], description: 'Handovers of its clients (the newest 100)' }) handovers: OrganisationHandoverResponse[];
  @ApiProperty({ type: OrganisationCountsResponse, description: 'How many of each there are in all' }) counts: OrganisationCountsResponse;
}
