import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { TenantsModule } from '@gatehouse/tenants';
import { AccessRequestNotifier } from './access-request.notifier.js';
import { AccessRequestRepository } from './access-request.repository.js';
import { AccessRequestService } from './access-request.service.js';
import { AccessRequestStateService } from './access-request-state.service.js';
import { AccessRequestSweepService } from './access-request-sweep.service.js';

/** Access requests: the public form, staff filing, the queue, and the state transitions. */
@Module({
  imports: [AuditModule, MailModule, TenantsModule],
  providers: [
    AccessRequestRepository,
    AccessRequestNotifier,
    AccessRequestService,
    AccessRequestStateService,
    AccessRequestSweepService,
  ],
  exports: [AccessRequestService, AccessRequestStateService, AccessRequestSweepService, AccessRequestNotifier],
})
export class RequestsModule {}
