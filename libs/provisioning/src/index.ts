export * from './bootstrap.service.js';
export * from './provisioning.module.js';
export * from './staff-access.service.js';
export * from './staff.errors.js';
