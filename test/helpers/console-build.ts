/**
 * Makes sure the console is built before a browser test opens it: builds console/dist (the same
 * `node scripts/console-build.js` that `npm install` runs) when it is missing or older than any
 * source file of the console or of the typed client it uses.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(entry: string): number {
  const s = statSync(entry);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/** Builds the console when console/dist is missing or stale; returns the dist folder. */
export function ensureConsoleBuilt(): string {
  const dist = path.join(ROOT, 'console', 'dist');
  const index = path.join(dist, 'index.html');
  const sources = ['console/src', 'console/index.html', 'console/vite.config.ts', 'console/public', 'clients/typescript/src'].map((p) => path.join(ROOT, p));
  const newest = Math.max(...sources.filter((p) => existsSync(p)).map(newestMtime));
  if (!existsSync(index) || statSync(index).mtimeMs < newest) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'console-build.js')], { cwd: ROOT, stdio: 'inherit' });
  }
  return dist;
}
