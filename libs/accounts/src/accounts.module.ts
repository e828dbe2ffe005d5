import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';

@Module({
  imports: [AuditModule],
  providers: [UserRepository, UserService],
  exports: [UserService, UserRepository],
})
export class AccountsModule {}
