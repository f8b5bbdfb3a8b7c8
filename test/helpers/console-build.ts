/**
 * Makes sure the console is built before a browser test opens it: builds console/dist (the same
 * `node scripts/console-build.js` that `npm install` runs) when it is missing or older than any
 * source file of the console or of the typed client it uses. Test files run in parallel workers:
 * one builds while the others wait for it (a lock folder), since two builds writing console/dist
 * at once break each other (the service worker's precache list is injected into dist/sw.js).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(entry: string): number {
  const s = statSync(entry);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

const DIST = path.join(ROOT, 'console', 'dist');
/** Held (created) by the one process building the console; removed when it is done. */
const LOCK = path.join(ROOT, 'node_modules', '.cache', 'console-build.lock');
/** A lock older than this is a build that died: it is taken over. */
const STALE_LOCK_MS = 180_000;

/** True when console/dist/index.html is missing or older than a source file. */
function stale(): boolean {
  const index = path.join(DIST, 'index.html');
  const sources = ['console/src', 'console/index.html', 'console/vite.config.ts', 'console/public', 'clients/typescript/src'].map((p) => path.join(ROOT, p));
  const newest = Math.max(...sources.filter((p) => existsSync(p)).map(newestMtime));
  return !existsSync(index) || statSync(index).mtimeMs < newest;
}

/** Sleeps `ms` milliseconds without returning to the event loop (the callers are synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds the console when console/dist is missing or stale; returns the dist folder. */
export function ensureConsoleBuilt(): string {
  while (stale()) {
    mkdirSync(path.dirname(LOCK), { recursive: true });
    try {
      mkdirSync(LOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another worker is building: wait for it, then look again.
      const held = statSync(LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else pause(250);
      continue;
    }
    try {
      if (stale()) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'console-build.js')], { cwd: ROOT, stdio: 'inherit' });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
  return DIST;
}
