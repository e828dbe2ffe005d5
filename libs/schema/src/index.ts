export * from './entities.js';
export * from './core-imports.js';
export * from './migrate.js';
export * from '../../../migrations/index.js';
