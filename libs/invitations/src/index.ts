export * from './invitation.entity.js';
export * from './invitation.errors.js';
export * from './invitation.view.js';
export * from './invitation.repository.js';
export * from './invitation.service.js';
export * from './invitation-sweep.service.js';
export * from './invitations.module.js';
