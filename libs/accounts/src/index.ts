export * from './user.entity.js';
export * from './roles.js';
