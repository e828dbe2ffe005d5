export * from './app-config.js';
export * from './default-data-dir.js';
export * from './load-config.js';
export * from './config.module.js';
