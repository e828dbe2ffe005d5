export * from './totp-factor.entity.js';
export * from './recovery-code.entity.js';
export * from './mfa.errors.js';
export * from './mfa.repository.js';
export * from './totp.js';
export * from './recovery-codes.js';
export * from './second-factor.service.js';
