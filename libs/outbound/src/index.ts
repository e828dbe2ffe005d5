export * from './outbound.errors.js';
export * from './outbound-url.js';
export * from './outbound-fetch.js';
export * from './destination.js';
