export * from './signing-key.entity.js';
export * from './client-auth-throttle.entity.js';
