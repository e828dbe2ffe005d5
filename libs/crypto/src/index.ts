export * from './secret-hasher.js';
export * from './key-encryptor.js';
export * from './crypto.module.js';
