export * from './bootstrap.service.js';
export * from './provisioning.module.js';
export * from './tenant-settings.service.js';
