import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      // antd components are heavy to render in jsdom on a 2-core machine.
      testTimeout: 20_000,
      // Vitest's default is cores minus one: a single worker on a 2-core machine.
      maxWorkers: 2,
    },
  }),
);
