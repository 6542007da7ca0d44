export * from './address.js';
export * from './deliverer.js';
