import { Module } from '@nestjs/common';
import { WorkQueueRepository } from './work-queue.repository.js';
import { WorkQueueService } from './work-queue.service.js';

/** The work waiting for staff across contexts (a read model: counts only, no writes). */
@Module({
  providers: [WorkQueueRepository, WorkQueueService],
  exports: [WorkQueueService],
})
export class WorkQueuesModule {}
