import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { AppLifecycle } from './app-lifecycle.js';

/**
 * Every app's health paths; not part of the admin API's OpenAPI document (which leaves them out).
 * No @nestjs/swagger here: importing it costs every identity replica and worker ≈ 4 MB of heap
 * and 15 MB of RSS for a document only the admin app builds.
 */
@Controller('health')
export class HealthController {
  constructor(private readonly lifecycle: AppLifecycle) {}

  /** The process is up. Never touches dependencies, so a slow database does not kill the pod. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to serve: Postgres answers and the app is not shutting down. */
  @Get('ready')
  async ready(): Promise<{ status: 'ok' }> {
    if (this.lifecycle.draining) throw new ServiceUnavailableException({ status: 'shutting_down' });
    if (!(await this.lifecycle.ready())) throw new ServiceUnavailableException({ status: 'database_unavailable' });
    return { status: 'ok' };
  }
}
