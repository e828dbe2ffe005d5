export * from './health.controller.js';
export * from './metrics.js';
export * from './operations.module.js';
export * from './configure-app.js';
export * from './form-protection.js';
export * from './return-to.js';
export * from './source-address.js';
export * from './dev-tls.js';
