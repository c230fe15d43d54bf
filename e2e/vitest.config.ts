import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['support/global-setup.ts'],
    // One server, one browser per file; files run one after another on a 2-core machine.
    fileParallelism: false,
    // Twice the longest test's time alone: this suite may run beside the server suite.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
