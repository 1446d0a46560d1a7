export * from './types';
export * from './sources';
export * from './flags';
export * from './complaints';
export * from './questions';
export * from './rules';
export * from './search';
export * from './note';
