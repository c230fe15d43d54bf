import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server listens on 8080 (README); in development the console proxies to it so that the
// browser sees one origin, as it does when the server serves the built console.
const server = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      treeshake: {
        /*
         * The contract builds its zod schemas at module level, which a bundler must keep unless
         * told the calls are pure: the console would carry every schema of every domain in the
         * entry bundle because the login needs a header name. Building a schema has no effect
         * outside the schema, so the contract's modules and `z.*` calls are declared free of side
         * effects and only what a chunk uses is bundled (docs/performance.md, "Console weight").
         */
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]/, sideEffects: false }],
        manualPureFunctions: ['z'],
      },
      output: {
        codeSplitting: {
          /*
           * Everything the entry imports statically (the login page, React, the router, i18next,
           * TanStack Query, the request wrapper) is one file: a first visit then waits for one
           * download instead of a dozen, which on a mobile network (six connections, 150 ms each
           * way) is most of the time to the login form. Chunks loaded later import from it.
           */
          groups: [{ name: 'shell', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true, ws: true },
      '/device': { target: server, changeOrigin: true },
      // The open API and its document (the API document tab reads /open/v1/openapi.json).
      '/open': { target: server, changeOrigin: true },
    },
  },
});
