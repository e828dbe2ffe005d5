export * from './organisation.entity.js';
export * from './organisation.errors.js';
export * from './organisation-name.js';
export * from './organisation.view.js';
export * from './organisation.service.js';
export * from './offboarding.service.js';
export * from './organisations.module.js';
