import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { InitialPasswordMode } from '@gatehouse/accounts';

const MODES: InitialPasswordMode[] = ['generate', 'activation-link'];

export class ResetPasswordDto {
  @ApiProperty({ enum: MODES, description: '"generate" answers a one-time password; "activation-link" mails a link (24 h)' })
  @IsIn(MODES)
  mode: InitialPasswordMode;
}
