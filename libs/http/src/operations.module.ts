import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AppLifecycle } from './app-lifecycle.js';
import { HealthController } from './health.controller.js';
import { APP_NAME, MetricsMiddleware, MetricsRegistry } from './metrics.js';

/**
 * `/health/live` and `/health/ready` on every app, the process' {@link MetricsRegistry} for every
 * context, and the app's {@link AppLifecycle}. `/metrics` is served by the management listener only.
 */
@Global()
@Module({})
export class OperationsModule implements NestModule {
  static forRoot(app: string, metrics: MetricsRegistry): DynamicModule {
    return {
      module: OperationsModule,
      controllers: [HealthController],
      providers: [{ provide: MetricsRegistry, useValue: metrics }, { provide: APP_NAME, useValue: app }, AppLifecycle],
      exports: [MetricsRegistry, AppLifecycle, APP_NAME],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MetricsMiddleware).forRoutes('*path');
  }
}
