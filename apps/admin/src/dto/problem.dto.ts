import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One field that failed validation. */
export class FieldProblemResponse {
  @ApiProperty({ example: 'displayName' }) field: string;
  @ApiProperty({ example: 'displayName is required' }) message: string;
}

/** RFC 9457 problem details, as every refusal and failure of the admin API is answered. */
export class ProblemResponse {
  @ApiProperty({ example: 'urn:gatehouse:problem:validation_failed' }) type: string;
  @ApiProperty({ example: 'Bad Request' }) title: string;
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({ example: 'Invalid request: displayName' }) detail: string;
  @ApiProperty({ description: 'Stable machine-readable code', example: 'validation_failed' }) code: string;
  @ApiPropertyOptional({ type: [FieldProblemResponse], description: 'Each field that failed, once' }) errors?: FieldProblemResponse[];
  @ApiPropertyOptional({ description: 'Also in the server log (5xx only)' }) errorId?: string;
  @ApiPropertyOptional({ type: [String], description: 'A webhook event filter naming no known event: every event a filter may name' })
  knownEvents?: string[];
  @ApiPropertyOptional({
    enum: ['allowedCredentialKinds', 'maxSecretLifetimeDays', 'maxCertificateLifetimeDays'],
    description: "A credential refused by the tenant's credential policy: the rule it breaks",
  })
  rule?: string;
}
