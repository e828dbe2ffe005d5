export * from './audit-event.entity.js';
export * from './actor.js';
export * from './redact.js';
export * from './audit.repository.js';
export * from './audit.service.js';
export * from './audit.module.js';
export * from './audit.errors.js';
export * from './audit.view.js';
