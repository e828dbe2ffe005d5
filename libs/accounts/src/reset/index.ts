export * from './password-reset-request.entity.js';
export * from './password-reset-throttle.entity.js';
export * from './password-reset.repository.js';
export * from './password-reset.service.js';
