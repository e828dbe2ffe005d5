import { Module } from '@nestjs/common';
import { AuditLookupRepository } from './audit-lookup.repository.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

@Module({
  providers: [AuditRepository, AuditLookupRepository, AuditService],
  exports: [AuditService],
})
export class AuditModule {}
