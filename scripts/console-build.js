#!/usr/bin/env node
// Builds the Caretaker console (docs/console.md) into console/dist with Vite, printing Vite's
// progress. Run by `npm install` (the `prepare` script), by `npm start` when the build is missing
// (`--if-missing`) and by `npm run console:build`. Plain JavaScript so that it runs on whatever
// `node` npm finds during install. Without Vite (an install that omitted dev dependencies) it says
// so and exits 0: the API still serves, and / shows how to build the console.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
process.stdout.write(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
