import { defineConfig } from 'vitest/config';

// End-to-end: a real server process, a real SMTP server, headless Chromium. One file at a time.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
