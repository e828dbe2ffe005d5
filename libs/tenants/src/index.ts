export * from './tenant.entity.js';
