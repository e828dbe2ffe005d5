import { Get, Query } from '@nestjs/common';
import { type AuditEventView, AuditService } from '@gatehouse/audit';
import { type Page } from '@gatehouse/database';
import { ApiOkResponse } from '@nestjs/swagger';
import { AuditEventPage } from '../dto/responses.dto.js';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { AuditQueryDto } from '../dto/tenant-audit.dto.js';

@AdminController('audit-events', 'audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @RequirePermission('Audit.Read')
  @ApiOkResponse({ type: AuditEventPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: AuditQueryDto): Promise<Page<AuditEventView>> {
    return this.audit.list(principal.tenantId, query);
  }
}
