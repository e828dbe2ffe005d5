import { Module } from '@nestjs/common';
import { SessionRepository } from './session.repository.js';
import { SessionService } from './session.service.js';

@Module({
  providers: [SessionRepository, SessionService],
  exports: [SessionService],
})
export class SessionsModule {}
