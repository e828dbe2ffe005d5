export * from './html.js';
export * from './markdown.js';
export * from './stylesheet.js';
