import { Readable } from 'node:stream';
import { Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CredentialReportService } from '@gatehouse/clients';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CredentialReportPage, CredentialReportQueryDto, reportFilterOf } from '../dto/credential-report.dto.js';
import { reportCsv } from './credential-report.csv.js';

@AdminController('credential-report', 'credential-report', 'Every credential of the tenant with its client, dates, last use and state: who uses it, from where, when last.')
export class CredentialReportController {
  constructor(private readonly report: CredentialReportService) {}

  @Get()
  @ApiOperation({
    summary: 'The credential report (JSON paged with cursor; with `Accept: text/csv` the whole report, streamed)',
  })
  @ApiProduces('application/json', 'text/csv')
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: CredentialReportPage })
  async list(
    @Principal() principal: AdminPrincipal,
    @Query() query: CredentialReportQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CredentialReportPage | undefined> {
    const filter = reportFilterOf(query);
    if (!wantsCsv(req)) return this.report.page(principal.tenantId, { ...filter, limit: query.limit, cursor: query.cursor });
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="credential-report-${stamp}.csv"`);
    res.setHeader('cache-control', 'no-store');
    await streamInto(res, reportCsv(this.report.export(principal.tenantId, filter)));
    return undefined;
  }
}

/** CSV when the client asks for it first (or only); JSON otherwise. */
function wantsCsv(req: Request): boolean {
  return req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

/** Writes the chunks as they come, waiting when the socket is full (memory stays flat). */
function streamInto(res: Response, chunks: AsyncGenerator<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const source = Readable.from(chunks);
    source.on('error', (error) => {
      res.destroy(error);
      reject(error);
    });
    res.on('finish', () => resolve());
    res.on('close', () => resolve());
    source.pipe(res);
  });
}
