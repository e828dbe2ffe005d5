export * from './data-source-options.js';
export * from './snake-naming.strategy.js';
export * from './postgres-errors.js';
export * from './embedded-postgres.js';
export * from './change-notifier.js';
export * from './change-listener.js';
export * from './database.module.js';
export * from './pagination.js';
