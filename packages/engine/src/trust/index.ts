export * from './yield.ts';
