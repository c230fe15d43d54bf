import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './support/workers';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    // One server per worker (support/global-setup.ts), one browser per file.
    globalSetup: ['support/global-setup.ts'],
    maxWorkers: E2E_WORKERS,
    // Twice the longest test's time alone: this suite may run beside the server suite.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default: a screen that updates after a save under the
    // server lane's load took longer (accounts.spec's role column, seen on a slow clean clone).
    // A poll that fails should fail on a wrong value, not on a slow one.
    expect: { poll: { timeout: 20_000 } },
  },
});
