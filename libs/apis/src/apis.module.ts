import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { ApiRepository } from './api.repository.js';
import { ApiService } from './api.service.js';

@Module({
  imports: [AuditModule],
  providers: [ApiRepository, ApiService],
  exports: [ApiService, ApiRepository],
})
export class ApisModule {}
