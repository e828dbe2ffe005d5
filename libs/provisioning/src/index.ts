export * from './bootstrap.service.js';
export * from './provisioning.module.js';
export * from './staff-access.service.js';
export * from './staff.errors.js';
export * from './access-decision.service.js';
export * from './credential-delivery.service.js';
export * from './access-provisioning.module.js';
export * from './tenant-settings.service.js';
