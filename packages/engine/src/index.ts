export * from './contract/index.ts';
export * from './decimal.ts';
export * from './launchpad/index.ts';
export * from './matching/index.ts';
export * from './option/index.ts';
export * from './trust/index.ts';
