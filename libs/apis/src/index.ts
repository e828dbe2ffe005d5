export * from './api.entity.js';
export * from './api-scope.entity.js';
export * from './api.errors.js';
export * from './api.repository.js';
export * from './api.service.js';
export * from './apis.module.js';
