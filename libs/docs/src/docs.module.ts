import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { DocRepository } from './doc.repository.js';
import { DocService } from './doc.service.js';

@Module({
  imports: [AuditModule],
  providers: [DocRepository, DocService],
  exports: [DocService],
})
export class DocsModule {}
