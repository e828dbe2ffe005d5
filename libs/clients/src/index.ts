export * from './api-client.entity.js';
export * from './client-secret.entity.js';
export * from './client-scope-grant.entity.js';
