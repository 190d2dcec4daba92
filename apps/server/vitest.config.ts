import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    // Each file builds its own app on its own database (PGlite in memory, loaded from the run's
    // migrated snapshot made once by the global setup, or a fresh PostgreSQL schema when
    // DATABASE_URL is set), so files can run in parallel.
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
