export * from './decimal.ts';
export * from './matching/index.ts';
export * from './option/index.ts';
export * from './contract/index.ts';
