export * from './printable.js';
export * from './redaction.js';
export * from './logging.module.js';
