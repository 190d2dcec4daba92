export * from './allot.ts';
