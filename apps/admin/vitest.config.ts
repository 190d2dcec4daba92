import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'admin',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup-dom.ts'],
    // the first test of a file compiles antd on the spot
    testTimeout: 40_000,
  },
});
