import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSourceOptions } from 'typeorm';
import { ChangeListener } from './change-listener.js';

/**
 * Registers the TypeORM connection and the change listener. The app passes the complete options
 * (entities and migrations come from the schema library, which knows every context).
 */
@Global()
@Module({})
export class DatabaseModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(ChangeListener) private readonly listener: ChangeListener) {}

  static forRoot(options: DataSourceOptions & { url: string }, onReconnect?: () => void): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...options, retryAttempts: 3, retryDelay: 500 })],
      providers: [
        { provide: ChangeListener, useFactory: () => new ChangeListener(options.url, undefined, onReconnect) },
      ],
      exports: [ChangeListener],
    };
  }

  async onModuleInit(): Promise<void> {
    await this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
  }
}
