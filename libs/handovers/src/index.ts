export * from './credential-handover.entity.js';
export * from './handover.errors.js';
export * from './handover.view.js';
export * from './handover.repository.js';
export * from './handover.service.js';
export * from './handover-resend.service.js';
export * from './handover-sweep.service.js';
export * from './handovers.module.js';
