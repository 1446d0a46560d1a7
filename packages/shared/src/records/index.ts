export * from './medical-date';
export * from './fields';
export * from './choices';
export * from './categories';
export * from './units';
export * from './rules';
export * from './format';
