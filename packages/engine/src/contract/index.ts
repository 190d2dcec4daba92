export * from './mechanics.ts';
export * from './trigger-index.ts';
