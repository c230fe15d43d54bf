import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      // antd components are heavy to render in jsdom on a 2-core machine, and `npm test` runs this
      // suite beside the server's (which starts servers, nginx and Mosquitto): the longest dialog
      // walks take 8-18 s alone and went past 20 s under that load.
      testTimeout: 40_000,
      // Vitest's default is cores minus one: a single worker on a 2-core machine.
      maxWorkers: 2,
      // Files share a worker's loaded modules (antd, the pages) instead of loading them once per
      // file: the suite takes half the time. setup.ts starts each file in English with empty
      // storage and cleans the DOM and the fake socket after each test.
      isolate: false,
    },
  }),
);
