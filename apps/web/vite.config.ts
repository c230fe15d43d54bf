import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server listens on 8080 (README); in development the console proxies to it so that the
// browser sees one origin, as it does when the server serves the built console.
const server = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true, ws: true },
      '/device': { target: server, changeOrigin: true },
    },
  },
});
