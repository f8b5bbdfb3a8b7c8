/**
 * `npm run bench:chunks` (bench/README.md "The console's first-view script, from the build"): the
 * compressed script a console page needs before it first renders, read from the built console
 * (console/dist, `npm run console:build`) without a browser, so it does not depend on the
 * machine's load. For the shell (the entry script of console/dist/index.html) and for each page
 * chunk named on the command line (default `job`, the job page: the chunk routes.tsx loads lazily
 * for `/jobs/<uuid>`), it follows the chunks' static imports (`import ... from "./x.js"`, what the
 * browser must fetch before the module runs; dynamic `import()` is not followed: those load later)
 * and sums the bytes the server sends for each: the brotli copy `x.js.br` written by
 * scripts/console-build.js when there is one (what Chromium asks for), else the file itself (files
 * under 1 kB are sent uncompressed). The browser measure is `npm run bench:vitals`' "script before
 * LCP", which also counts each response's headers: about 1.1 kB a script from this server (its
 * security headers included; 206.8 kB received for 191.6 kB of files over 14 scripts on
 * 2026-12-07).
 *
 * Usage: `npm run bench:chunks -- [chunk ...]`, e.g. `npm run bench:chunks -- job visit`;
 * `BENCH_CHUNKS_DIST` another built console folder (default console/dist; its scripts are
 * compressed here when it has no `.br` copies).
 * Prints each chunk with its compressed size in kB (1,024 bytes) and the total per page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.resolve(process.env.BENCH_CHUNKS_DIST ?? path.join(ROOT, 'console', 'dist'));
const ASSETS = path.join(DIST, 'assets');

/** A static import of a built chunk: `from"./x.js"` or a bare `import"./x.js"` (not `import("./x.js")`). */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g;

/**
 * The chunks `file` statically imports, directly or through others, itself included.
 * @param file a file name under console/dist/assets
 * @returns the file names, in the order first reached
 */
export function staticClosure(file: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(path.join(ASSETS, name), 'utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) visit(m[1]!);
  };
  visit(file);
  return [...seen];
}

/**
 * The bytes the server sends for a built chunk: its brotli copy when scripts/console-build.js
 * wrote one, else the file.
 * @param file a file name under console/dist/assets
 * @returns bytes
 */
export function sentBytes(file: string): number {
  const br = path.join(ASSETS, `${file}.br`);
  if (existsSync(br)) return statSync(br).size;
  const bytes = readFileSync(path.join(ASSETS, file));
  // A build without the copies (another output folder): compressed as scripts/console-build.js does.
  if (bytes.length < 1024) return bytes.length;
  return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length;
}

/** The shell's entry script, from console/dist/index.html. */
function entryFile(): string {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const m = /<script type="module"[^>]*src="\/assets\/([\w.-]+\.js)"/.exec(html);
  if (!m) throw new Error('console/dist/index.html has no module script: run `npm run console:build`');
  return m[1]!;
}

/**
 * The built chunk whose name before its hash is `name` (`job` finds `job-<hash>.js`, not
 * `job-files-<hash>.js`). Vite's hash is 8 characters of base64url, so it may hold a `-` itself
 * (`auth-DXFK-pPu.js`).
 */
function chunkFile(name: string): string {
  const found = readdirSync(ASSETS).filter((f) => /^(.+)-[\w-]{8}\.js$/.exec(f)?.[1] === name);
  if (found.length !== 1) throw new Error(`no single built chunk named ${name} (${found.join(', ') || 'none'})`);
  return found[0]!;
}

const kB = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

function main(): void {
  const entry = entryFile();
  const shell = staticClosure(entry);
  const report = (title: string, files: string[]): void => {
    const sized = files.map((f) => ({ f, bytes: sentBytes(f) })).sort((a, b) => b.bytes - a.bytes);
    const total = sized.reduce((sum, s) => sum + s.bytes, 0);
    process.stdout.write(`${title}: ${kB(total)} in ${files.length} scripts\n`);
    for (const s of sized) process.stdout.write(`  ${s.f.padEnd(40)} ${kB(s.bytes).padStart(9)}\n`);
  };
  report('shell (every page)', shell);
  const names = process.argv.slice(2);
  for (const name of names.length ? names : ['job']) {
    const own = staticClosure(chunkFile(name)).filter((f) => !shell.includes(f));
    report(`page chunk ${name}, with the shell`, [...shell, ...own]);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
