export * from './html.js';
export * from './markdown.js';
export * from './stylesheet.js';
export * from './feedback.js';
export * from './forms.js';
export * from './tables.js';
export * from './layout.js';
export * from './qr.js';
