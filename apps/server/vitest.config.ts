import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Each test file opens its own database (PGlite in memory, or a fresh PostgreSQL database).
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
