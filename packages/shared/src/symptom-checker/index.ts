export * from './types';
export * from './sources';
export * from './flags';
export * from './complaints';
export * from './rules';
export * from './search';
export * from './note';
