import { Module } from '@nestjs/common';
import { TenantRepository } from './tenant.repository.js';
import { TenantService } from './tenant.service.js';

@Module({
  providers: [TenantRepository, TenantService],
  exports: [TenantService],
})
export class TenantsModule {}
