import { Get, Param, Query } from '@nestjs/common';
import { type AuditEventView, type AuditPage, AuditService } from '@gatehouse/audit';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuditEventPage, AuditEventResponse } from '../dto/responses.dto.js';
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

  @Get(':id')
  @ApiOperation({ summary: 'Read one audit event' })
  @RequirePermission('Audit.Read')
  @ApiOkResponse({ type: AuditEventResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<AuditEventView> {
    return this.audit.get(principal.tenantId, id);
  }
}
