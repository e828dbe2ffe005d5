export * from './session.entity.js';
export * from './session.repository.js';
export * from './session.service.js';
export * from './sessions.module.js';
export * from './form-submission.entity.js';
export * from './form-submission.repository.js';
