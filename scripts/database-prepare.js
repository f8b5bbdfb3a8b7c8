#!/usr/bin/env node
// Prepares the migrated embedded database at install (docs/onboarding.md, "First start"), as
// scripts/console-build.js builds the console: run by `npm install` (the `prepare` script), by
// `npm start` when the copy is missing (`--if-missing`) and by `npm run database:prepare`. Writes
// prepared/pglite-migrated.tar.gz and its manifest (src/main/prepared-database.ts); a first start on
// an empty data folder loads it instead of creating the database (about 25 s here). Plain
// JavaScript so it runs on whatever `node` npm finds: on a Node that cannot run the TypeScript
// sources it says so and exits 0 (the first start then creates the database itself).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv.includes('--if-missing') && existsSync(path.join(root, 'prepared', 'pglite-migrated.json'))) process.exit(0);
if (!process.features?.typescript) {
  process.stdout.write(`database: Node ${process.version} cannot run the TypeScript sources; skipping the prepared database (the first start creates it).\n`);
  process.exit(0);
}
let mod;
try {
  mod = await import('../src/main/prepared-database.ts');
} catch (err) {
  process.stdout.write(`database: cannot prepare the embedded database here (${err.message}); the first start creates it.\n`);
  process.exit(0);
}
process.stdout.write('database: preparing the migrated embedded database for the first start ...\n');
const started = Date.now();
const { file, bytes, migrations } = await mod.prepareDatabase();
process.stdout.write(
  `database: ${migrations} migrations, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${path.relative(root, file)}, prepared in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
