import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    // Each file builds its own app on its own database (PGlite in memory, or a fresh
    // PostgreSQL schema when DATABASE_URL is set), so files can run in parallel.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
