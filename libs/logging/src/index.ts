export * from './redaction.js';
export * from './logging.module.js';
