import { Module } from '@nestjs/common';
import { FormSubmissionRepository } from './form-submission.repository.js';
import { SessionRepository } from './session.repository.js';
import { SessionService } from './session.service.js';

@Module({
  providers: [SessionRepository, SessionService, FormSubmissionRepository],
  exports: [SessionService, FormSubmissionRepository],
})
export class SessionsModule {}
