export * from './bootstrap.service.js';
export * from './provisioning.module.js';
