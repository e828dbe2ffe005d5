export * from './audit-event.entity.js';
