import { ApiProperty } from '@nestjs/swagger';
import { HANDOVER_STATUSES } from '@gatehouse/handovers';
import { ACCESS_REQUEST_STATUSES } from '@gatehouse/requests';

/** OpenAPI shapes of access requests and credential handovers. */
class AccountPartResponse {
  @ApiProperty() documentation: string;
  @ApiProperty() reason: string;
}

class ApiPartResponse {
  @ApiProperty() systemName: string;
  @ApiProperty() technicalContactEmail: string;
  @ApiProperty() purpose: string;
}

const when = { type: String, format: 'date-time', nullable: true } as const;
const id = { type: String, format: 'uuid', nullable: true } as const;

export class AccessRequestResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ACCESS_REQUEST_STATUSES }) status: string;
  @ApiProperty({ enum: ['web', 'staff'] }) origin: string;
  @ApiProperty() requesterName: string;
  @ApiProperty() requesterEmail: string;
  @ApiProperty({ description: 'The organisation as the requester named it' }) organisation: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The partner organisation the approval picked (same name, any case) or created' })
  organisationId: string | null;
  @ApiProperty({ type: AccountPartResponse, nullable: true }) account: AccountPartResponse | null;
  @ApiProperty({ type: ApiPartResponse, nullable: true }) api: ApiPartResponse | null;
  @ApiProperty({ type: String, nullable: true }) sourceAddress: string | null;
  @ApiProperty(id) filedByUserId: string | null;
  @ApiProperty(when) confirmationExpiresAt: string | null;
  @ApiProperty(when) confirmedAt: string | null;
  @ApiProperty(id) decidedByUserId: string | null;
  @ApiProperty(when) decidedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) decisionNote: string | null;
  @ApiProperty({ type: [String] }) sections: string[];
  @ApiProperty(id) userId: string | null;
  @ApiProperty({ ...id, description: 'Public client id of the client the approval created' }) clientId: string | null;
  @ApiProperty(id) invitationId: string | null;
  @ApiProperty(when) accountDeliveredAt: string | null;
  @ApiProperty(when) credentialsDeliveredAt: string | null;
  @ApiProperty(when) fulfilledAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class AccessRequestPage {
  @ApiProperty({ type: [AccessRequestResponse] }) items: AccessRequestResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class HandoverResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty({ enum: HANDOVER_STATUSES }) status: string;
  @ApiProperty() recipientEmail: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty(id) accessRequestId: string | null;
  @ApiProperty(id) createdByUserId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty(when) revealedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Source address of the reveal' }) revealedFrom:
    string | null;
  @ApiProperty({ ...id, description: 'Key id of the secret the reveal created' }) secretKeyId: string | null;
  @ApiProperty(when) revokedAt: string | null;
}
