/**
 * Vite configuration of the Caretaker console (docs/console.md). `npm run console:build` writes
 * hashed files to console/dist (served at / by the API process, src/http/console.ts);
 * `npm run dev` serves the console with hot reload on http://127.0.0.1:5173 and proxies /api and
 * /docs to the API (CARETAKER_API_URL, default http://127.0.0.1:3000).
 *
 * vite-plugin-pwa makes the installable app (docs/console.md "On a phone: the installable app"):
 * the web app manifest `manifest.webmanifest` and the service worker `sw.js`, built from
 * src/sw.ts (Workbox, strategy injectManifest: our own worker, for its API caching and push
 * handlers) with the list of files to precache (the app shell: the hashed assets, index.html,
 * the icons) injected at build time. The worker is registered by src/pwa.ts in production builds
 * only (the dev server never has one).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.CARETAKER_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'autoUpdate',
      manifestFilename: 'manifest.webmanifest',
      // The icons are in the precache through globPatterns already.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Caretaker',
        short_name: 'Caretaker',
        description: 'Property maintenance jobs: report, assign, visit and complete repairs.',
        lang: 'en-GB',
        start_url: '/jobs',
        scope: '/',
        display: 'standalone',
        // --brand and --bg of src/styles.css.
        theme_color: '#1f4e79',
        background_color: '#f6f7f8',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // The console's largest chunk (the charts) is under 1 MB; the default limit is 2 MiB.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    // dist/.vite/manifest.json: which chunks each page's module needs, read by the server to send a
    // job page's or the sign-in page's scripts with its shell (`pageScripts` in src/http/console.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Every module the entry imports statically ("$initial") in the entry's own script: the
        // first view is one request instead of three (docs/console.md "How it is built and served").
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: api, changeOrigin: false }, '/docs': { target: api } },
  },
});
