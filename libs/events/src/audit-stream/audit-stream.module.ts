import { Module } from '@nestjs/common';
import { AuditStreamRepository } from './audit-stream.repository.js';
import { AuditStreamService } from './audit-stream.service.js';

/** Audit streaming to SIEMs (§13): only the worker imports it. */
@Module({
  providers: [AuditStreamRepository, AuditStreamService],
  exports: [AuditStreamService],
})
export class AuditStreamModule {}
