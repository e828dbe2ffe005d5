import { DynamicModule, type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@gatehouse/config';
import { ProvisioningModule } from '@gatehouse/provisioning';
import { coreImports } from '@gatehouse/schema';
import type { DestinationStream } from 'pino';
import { StderrLogger } from './stderr-logger.js';

@Module({})
class ProvisioningContextModule {
  static register(config: AppConfig, logDestination?: DestinationStream, feature: Type = ProvisioningModule): DynamicModule {
    return {
      module: ProvisioningContextModule,
      imports: [...coreImports(config, { app: 'cli', poolSize: 2, logDestination }), feature],
    };
  }
}

/** A Nest context with the provisioning use cases (or another `feature` module) and nothing that listens on a port. */
export async function createProvisioningContext(
  config: AppConfig,
  logDestination?: DestinationStream,
  feature?: Type,
): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(ProvisioningContextModule.register(config, logDestination, feature), {
    logger: new StderrLogger(),
  });
}
