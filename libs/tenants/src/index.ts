export * from './tenant.entity.js';
export * from './tenant.errors.js';
export * from './tenant.repository.js';
export * from './tenant.service.js';
export * from './tenants.module.js';
