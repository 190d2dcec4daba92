import { describe, expect, it } from 'vitest';
import { importClosure, importOrder } from './page-chunks';

// A page's chunk, the chunk it shares with the other first pages, and the main chunk both import.
const chunks = new Map([
  ['pages-assets.js', { imports: ['pages-shared.js', 'index.js'] }],
  ['pages-shared.js', { imports: ['index.js'] }],
  ['index.js', { imports: ['runtime.js'] }],
  ['runtime.js', { imports: [] }],
]);

describe("a first page's chunks", () => {
  it('are the page and everything it imports, once', () => {
    expect([...importClosure(chunks, ['pages-shared.js'])].sort()).toEqual([
      'index.js',
      'pages-shared.js',
      'runtime.js',
    ]);
  });

  it('come each after what it imports, so their stylesheets cascade as Vite links them', () => {
    expect(importOrder(chunks, 'pages-assets.js')).toEqual([
      'runtime.js',
      'index.js',
      'pages-shared.js',
      'pages-assets.js',
    ]);
  });
});
