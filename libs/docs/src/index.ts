export * from './doc-section.entity.js';
export * from './doc.errors.js';
export * from './doc.repository.js';
export * from './doc.service.js';
export * from './docs.module.js';
