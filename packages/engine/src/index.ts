export * from './decimal.ts';
export * from './matching/index.ts';
