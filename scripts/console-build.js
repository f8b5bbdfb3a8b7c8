#!/usr/bin/env node
// Builds the Caretaker console (docs/console.md) into console/dist with Vite, printing Vite's
// progress. Run by `npm install` (the `prepare` script), by `npm start` when the build is missing
// (`--if-missing`) and by `npm run console:build`. Plain JavaScript so that it runs on whatever
// `node` npm finds during install. Without Vite (an install that omitted dev dependencies) it says
// so and exits 0: the API still serves, and / shows how to build the console.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'console', 'dist', 'index.html');
if (process.argv.includes('--if-missing') && existsSync(dist)) process.exit(0);

let vite;
try {
  const require = createRequire(path.join(root, 'package.json'));
  vite = await import(require.resolve('vite'));
} catch {
  process.stdout.write('console: Vite is not installed (dev dependencies omitted); skipping the console build. / will say how to build it.\n');
  process.exit(0);
}
// Always the production build: a test runner that finds the console stale builds it with
// NODE_ENV=test inherited, which would give React's development build (twice the size, effects run
// twice) and test something no user gets.
process.env.NODE_ENV = 'production';
process.stdout.write('console: building the web console into console/dist ...\n');
const started = Date.now();
await vite.build({ configFile: path.join(root, 'console', 'vite.config.ts'), logLevel: 'info' });

// Brotli and gzip copies of the hashed scripts and styles, written once here with Node's zlib and
// served by @fastify/static's `preCompressed` (src/http/console.ts) to browsers that accept them:
// the job board's first view downloads about a third of the bytes, and nothing compresses per
// request. Files under 1 kB are left alone (no gain).
const assets = path.join(root, 'console', 'dist', 'assets');
let plain = 0;
let brotli = 0;
for (const name of existsSync(assets) ? readdirSync(assets) : []) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const bytes = readFileSync(path.join(assets, name));
  if (bytes.length < 1024) continue;
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  writeFileSync(path.join(assets, `${name}.br`), br);
  writeFileSync(path.join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  plain += bytes.length;
  brotli += br.length;
}
process.stdout.write(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s (scripts and styles ${Math.round(plain / 1024)} kB, ${Math.round(brotli / 1024)} kB with brotli)\n`);
