/**
 * Vite configuration of the Caretaker console (docs/console.md). `npm run console:build` writes
 * hashed files to console/dist (served at / by the API process, src/http/console.ts);
 * `npm run dev` serves the console with hot reload on http://127.0.0.1:5173 and proxies /api and
 * /docs to the API (CARETAKER_API_URL, default http://127.0.0.1:3000).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.CARETAKER_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: api, changeOrigin: false }, '/docs': { target: api } },
  },
});
