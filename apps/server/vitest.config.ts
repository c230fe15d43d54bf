import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // One migrated embedded database for the run, copied by each test file (test/global-setup.ts).
    globalSetup: ['src/test/global-setup.ts'],
    // Each test file opens its own database (PGlite in memory, or a fresh PostgreSQL database).
    testTimeout: 20_000,
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine.
    // Most files wait on sockets, child processes and timers rather than compute, so three
    // files at a time finish the suite in about half the time.
    maxWorkers: 3,
    // Files share a worker's loaded modules instead of loading the server (and compiling PGlite's
    // WebAssembly) once per file: the suite takes half the time. Each file still opens its own
    // database and app, and a file that changes module state (setIpLocator) restores it.
    isolate: false,
    hookTimeout: 60_000,
  },
});
