export * from './constants';
export * from './validation';
export * from './contracts/common';
export * from './contracts/organizations';
export * from './contracts/system';
export * from "./i18n";
export * from './contracts/auth';
