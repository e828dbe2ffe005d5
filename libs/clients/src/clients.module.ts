import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { ClientRepository } from './client.repository.js';
import { ClientService } from './client.service.js';
import { ScopeResolver } from './scope-resolver.js';

@Module({
  imports: [AuditModule, AccountsModule, ApisModule],
  providers: [ClientRepository, ScopeResolver, ClientService],
  exports: [ClientService, ClientRepository],
})
export class ClientsModule {}
