export * from './token-validator.js';
export * from './bearer.guard.js';
