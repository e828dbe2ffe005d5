export * from './api.entity.js';
export * from './api-scope.entity.js';
