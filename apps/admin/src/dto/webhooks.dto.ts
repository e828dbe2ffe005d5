import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { WEBHOOK_STATES } from '@gatehouse/events';
import { Optional, SingleLine } from './decorators.js';

const URL_RULE = 'url: the URL is longer than 2,000 characters';
const EVENTS_EXAMPLE = ['client.secret.*', 'client.credential.expiring'];

/** The endpoint: the service names a broken outbound rule (https, credentials, private address). */
const Url = () => applyDecorators(IsString(), MinLength(1), MaxLength(2000, { message: URL_RULE }));
const Events = () => applyDecorators(IsArray(), ArrayMinSize(1), ArrayMaxSize(100), IsString({ each: true }), MaxLength(200, { each: true }));
const Description = () =>
  applyDecorators(ValidateIf((_o: object, value: unknown) => value !== null), IsString(), MaxLength(500), SingleLine());

export class CreateWebhookDto {
  @ApiProperty({ maxLength: 2000, example: 'https://hooks.example.com/gatehouse', description: 'https only; no user name or password; a host that resolves to a public address (or one WEBHOOK_PRIVATE_TARGETS names)' })
  @Url()
  url: string;

  @ApiProperty({ type: [String], example: EVENTS_EXAMPLE, description: 'Event names, `prefix.*`, or `*` for every event' })
  @Events()
  events: string[];

  @ApiPropertyOptional({ maxLength: 500, type: String, nullable: true })
  @Optional()
  @Description()
  description?: string | null;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2000 })
  @Optional()
  @Url()
  url?: string;

  @ApiPropertyOptional({ type: [String], example: EVENTS_EXAMPLE })
  @Optional()
  @Events()
  events?: string[];

  @ApiPropertyOptional({ maxLength: 500, type: String, nullable: true })
  @Optional()
  @Description()
  description?: string | null;

  @ApiPropertyOptional({ description: '`false` stops deliveries; `true` starts them again (after 410 Gone or a failing period)' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String] }) events: string[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: WEBHOOK_STATES }) state: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why it is failing or disabled' }) stateReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Until then each delivery also carries a signature made with the secret before the last rotation' })
  previousSecretValidUntil: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class WebhookWithSecretResponse extends WebhookResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret (Standard Webhooks). Shown in this answer only.' })
  secret: string;
}

export class WebhookPage {
  @ApiProperty({ type: [WebhookResponse] }) items: WebhookResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The audit event\'s id: the webhook-id header of every attempt' }) eventId: string;
  @ApiProperty({ example: 'client.secret.created' }) event: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) state: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: Number, nullable: true }) lastStatusCode: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WebhookDeliveryPage {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) items: WebhookDeliveryResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
