export * from './secret-hasher.js';
export * from './key-encryptor.js';
export * from './x509.js';
export * from './client-secret-format.js';
export * from './crypto.module.js';
