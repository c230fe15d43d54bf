export * from './auth';
export * from './enums';
export * from './envelope';
export * from './feedback';
export * from './headers';
export * from './menus';
export * from './permissions';
export * from './rules';
