/**
 * Writes the OpenAPI document the server serves at /api/openapi.json to
 * clients/typescript/openapi.json (docs/api.md, "OpenAPI document"), from an app on an in-memory
 * database, then generates the typed client's types from it (openapi-typescript).
 * `--check` fails when either file differs from the committed one (CI).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';

const root = path.resolve(import.meta.dirname, '..');
const docPath = path.join(root, 'clients/typescript/openapi.json');
const typesPath = path.join(root, 'clients/typescript/src/schema.d.ts');
const check = process.argv.includes('--check');

const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = process.env;
const config = loadConfig(env);
const scratch = mkdtempSync(path.join(tmpdir(), 'caretaker-openapi-'));
const runtime = await openRuntime(config, { dataDir: 'memory://', filesDir: scratch, mailDir: scratch });
const app = await buildApp(runtime.deps, { logger: false });
await app.ready();
const doc = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await runtime.close();
rmSync(scratch, { recursive: true, force: true });

const before = { doc: safeRead(docPath), types: safeRead(typesPath) };
writeFileSync(docPath, doc);
execFileSync(process.execPath, [path.join(root, 'node_modules/openapi-typescript/bin/cli.js'), docPath, '-o', typesPath, '--root-types'], { stdio: 'inherit' });
if (check) {
  const stale = [before.doc !== doc && docPath, before.types !== safeRead(typesPath) && typesPath].filter(Boolean);
  if (stale.length > 0) {
    process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`npm run openapi\` and commit the result.\n`);
    process.exit(1);
  }
}
process.stdout.write(`OpenAPI document: ${path.relative(root, docPath)} (${doc.length} bytes); types: ${path.relative(root, typesPath)}\n`);

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
