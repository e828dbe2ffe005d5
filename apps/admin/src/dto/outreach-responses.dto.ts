import { ApiProperty } from '@nestjs/swagger';
import { twoWayPageOf } from './responses.dto.js';

/** OpenAPI shapes of documentation sections, invitations and outbox mails. */
export class DocSectionResponse {
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Markdown' }) body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DocSectionPage {
  @ApiProperty({ type: [DocSectionResponse] }) items: DocSectionResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class InvitationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: [String] }) sections: string[];
  @ApiProperty({ enum: ['pending', 'accepted', 'expired', 'revoked'] }) status: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) acceptedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class InvitationPage {
  @ApiProperty({ type: [InvitationResponse] }) items: InvitationResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class EmailResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() to: string;
  @ApiProperty() subject: string;
  @ApiProperty() template: string;
  @ApiProperty({ enum: ['queued', 'sending', 'sent', 'failed', 'abandoned'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next delivery attempt is due; null once sent or abandoned',
  })
  nextAttemptAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Transient failures are retried until then; null before the first failure',
  })
  retryUntil: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The last failure, prefixed with its kind: unreachable, deferred (4xx) or rejected (5xx)',
  })
  lastError: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const EmailPage = twoWayPageOf(EmailResponse, 'EmailPage');
