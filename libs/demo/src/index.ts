export * from './demo-content.js';
export * from './demo.errors.js';
export * from './demo.repository.js';
export * from './demo-staff.service.js';
export * from './demo-fill.service.js';
export * from './demo.module.js';
