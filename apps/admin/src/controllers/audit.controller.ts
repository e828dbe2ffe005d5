import { Get, Query } from '@nestjs/common';
import { type AuditPage, AuditService } from '@gatehouse/audit';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuditEventPage } from '../dto/responses.dto.js';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { AuditQueryDto } from '../dto/tenant-audit.dto.js';

@AdminController('audit-events', 'audit', 'The append-only audit log: who changed what, when (secrets redacted).')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: 'List audit events (filter by actor, action, target, time; page older with cursor, newer with before)' })
  @RequirePermission('Audit.Read')
  @ApiOkResponse({ type: AuditEventPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: AuditQueryDto): Promise<AuditPage> {
    return this.audit.list(principal.tenantId, query);
  }
}
