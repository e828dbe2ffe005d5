import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserResponse } from './responses.dto.js';

export class ResetClientResponse {
  @ApiProperty({ format: 'uuid' }) clientId: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ minimum: 0 }) secretsRevoked: number;
  @ApiProperty({ minimum: 0 }) certificatesRemoved: number;
  @ApiProperty({ minimum: 0 }) federatedCredentialsRemoved: number;
  @ApiProperty({ minimum: 0 }) handoversRevoked: number;
}

export class ActivationLinkResponse {
  @ApiProperty({ enum: ['mail'], description: 'The console activation link went to the person by mail' }) delivery: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** What giving an existing account its first role reset (SECURITY 55). */
export class AccountResetResponse {
  @ApiProperty({ description: 'It had a password, which no longer works' }) passwordRemoved: boolean;
  @ApiProperty({ minimum: 0, description: 'Unused activation, password-reset and console invitation links that no longer work' })
  linksInvalidated: number;
  @ApiProperty({ description: 'It had a second factor, now removed' }) secondFactorsRemoved: boolean;
  @ApiProperty({ minimum: 0 }) sessionsEnded: number;
  @ApiProperty({ type: [ResetClientResponse], description: 'Clients it owns but did not create: secrets revoked, certificates and federated credentials removed, pending handovers revoked' })
  clients: ResetClientResponse[];
  @ApiProperty({ minimum: 0, description: 'Pending handovers revoked: addressed to it, or of the clients above' }) handoversRevoked: number;
  @ApiProperty({ type: ActivationLinkResponse }) activation: ActivationLinkResponse;
}

export class UpdatedUserResponse extends UserResponse {
  @ApiPropertyOptional({
    type: AccountResetResponse,
    description:
      'Present when the change gave an existing account its first role: the account started afresh (no password, no links, no second factor, no session, the credentials of clients made in its name by others revoked) and a console activation link went to it by mail — the only way in.',
  })
  accountReset?: AccountResetResponse;
}
