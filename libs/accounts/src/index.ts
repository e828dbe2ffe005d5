export * from './user.entity.js';
export * from './roles.js';
export * from './account.errors.js';
export * from './user.repository.js';
export * from './user.view.js';
export * from './user.service.js';
export * from './accounts.module.js';
