import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { QuietFrameworkLogger } from '@gatehouse/logging';
import { WorkerModule, type WorkerModuleOptions } from './worker.module.js';

/** The worker has no HTTP surface of its own: an application context running schedules. */
export async function createWorker(options: WorkerModuleOptions): Promise<INestApplicationContext> {
  const worker = await NestFactory.createApplicationContext(WorkerModule.register(options), { bufferLogs: true });
  worker.useLogger(worker.get(QuietFrameworkLogger));
  await worker.init();
  return worker;
}
