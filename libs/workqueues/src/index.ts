export * from './work-queue.repository.js';
export * from './work-queue.service.js';
export * from './workqueues.module.js';
