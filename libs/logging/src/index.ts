export * from './printable.js';
export * from './redaction.js';
export * from './app-scope.js';
export * from './quiet-framework-logger.js';
export * from './logging.module.js';
