import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppLifecycle } from './app-lifecycle.js';

@ApiExcludeController()
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
