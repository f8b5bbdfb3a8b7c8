/**
 * The Caretaker console (docs/console.md): the built web app (`console/dist`, made by
 * `npm run console:build`, which `npm install` runs through `prepare`) served at `/` by the same
 * process as the API. Hashed files under `/assets/` get a year-long immutable cache (brotli or gzip
 * copies made at build time to browsers that accept them); `index.html`
 * is revalidated on every load (`no-cache`), as are the service worker `/sw.js` and the web app
 * manifest of the installable app, and the shell answers every other GET that is not an API or docs
 * path, so client routes such as `/jobs/<uuid>` or the e-mail links `/accept-invitation?token=...`
 * and `/reset-password?token=...` open the app. `/api/...` and `/docs...` never fall back: an
 * unknown API path stays the spec's 404 envelope.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the built console is: `console/dist` of the repository (from src/http or dist/src/http). */
export function consoleDistDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../console/dist'), path.resolve(here, '../../../console/dist')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? candidates[0]!;
}

/**
 * How many of the console's files one address may fetch in a rate-limit window (docs/operations.md
 * "Configuration reference"), in place of the API's per-route limit (`CARETAKER_RATE_LIMIT_IP_MAX`, 300 a
 * minute). A browser's first visit asks for the shell's files and, through the service worker's
 * precache (console/src/sw.ts), every file of the build: about 80 requests under `/assets/`. At the
 * API's limit an office whose people share one address could open the console three or four times
 * in a minute; the next browser's files were refused with 429, and its pages failed to load their
 * parts ("Failed to fetch dynamically imported module"). The files are still counted per address,
 * so a flood is refused; an administrator's rule for the route (GET/PUT /api/admin/rate-limits)
 * still wins.
 */
export const CONSOLE_FILES_IP_MAX = 30_000;

/**
 * The first segments of the console's routes whose last part may hold a dot (console/src/routes.tsx):
 * a message template's id is `job.received.email`, so `/templates/job.received.email` is a page,
 * not a file. test/http/console-static.test.ts checks that every route with a parameter in
 * routes.tsx starts with one of these.
 */
export const CONSOLE_SECTIONS: ReadonlySet<string> = new Set([
  'jobs', 'templates', 'flows', 'contractors', 'tenants', 'addresses', 'properties', 'landlords', 'users', 'invoices', 'agencies',
  'settings', 'compliance', 'statements', 'quotes', 'exports', 'imports', 'branches', 'buildings',
]);

/**
 * True for a path the app shell may answer (docs/console.md "How it is built and served"): not
 * the API, not the docs, and not a file: a last segment with an extension (`/robots.txt`,
 * `/wp-login.php`) is a file unless the path is under one of the console's sections
 * (CONSOLE_SECTIONS), so a bookmarked `/templates/job.received.email` opens the app.
 * @param url the request URL (path and query)
 */
export function isConsolePath(url: string): boolean {
  const pathname = url.split('?')[0]!;
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname === '/docs' || pathname.startsWith('/docs/')) return false;
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length > 1 && CONSOLE_SECTIONS.has(segments[0]!)) return true;
  return !/\.[a-z0-9]+$/i.test(pathname);
}

const DAY = 'public, max-age=86400';

/** A job's page in the console: `/jobs/<uuid>` (console/src/pages/job-reads.ts). */
const JOB_PAGE = /^\/jobs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The API reads the console's first view of `url` starts at once (docs/console.md "How it is built
 * and served"), to be preloaded with the shell (a `Link: <...>; rel=preload; as=fetch` header), so
 * they travel with the scripts instead of after them: the plain job board `/jobs` (its first page
 * of jobs as console/src/logic/job-filters.ts asks for it, newest first, 20 a page, and the
 * statuses), a job's page `/jobs/<uuid>` (the job, the statuses, its history). Any other address,
 * a board with filters in its query included: none.
 * @param url the request URL (path and query)
 * @returns API paths with their query, e.g. `/api/jobs/statuses`
 */
export function firstViewReads(url: string): string[] {
  if (url === '/jobs') return ['/api/jobs/manage?sort=created_at&order=desc&limit=20&offset=0', '/api/jobs/statuses'];
  const job = JOB_PAGE.exec(url)?.[1];
  if (job) return [`/api/jobs/${job}`, '/api/jobs/statuses', `/api/jobs/${job}/history`];
  return [];
}

/** A chunk of Vite's build manifest (`console/dist/.vite/manifest.json`): its file and the manifest keys of the chunks it imports statically. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** The lazily loaded pages that can be a visit's first view, as modules of the console's build manifest (console/src/routes.tsx). */
const FIRST_VIEW_PAGES = {
  job: 'src/pages/job.tsx',
  signIn: 'src/pages/sign-in.tsx',
  passwordLinks: 'src/pages/password-links.tsx',
} as const;

/**
 * The lazily loaded page a shell's address opens first, as its module in the console's build
 * manifest (console/src/routes.tsx loads them lazily): a job's page `/jobs/<uuid>`, the sign-in
 * page, and the pages of a visitor following an e-mail's link (accepting an invitation, setting a
 * new password).
 * @param url the request URL (path and query)
 * @returns the manifest key, or null for any other address (the job board is in the shell itself)
 */
export function firstViewPage(url: string): string | null {
  const pathname = url.split('?')[0]!;
  if (JOB_PAGE.test(pathname)) return FIRST_VIEW_PAGES.job;
  if (pathname === '/sign-in') return FIRST_VIEW_PAGES.signIn;
  if (pathname === '/accept-invitation' || pathname === '/reset-password') return FIRST_VIEW_PAGES.passwordLinks;
  return null;
}

/**
 * The scripts a lazily loaded page needs beyond the shell's (docs/console.md "How it is built and
 * served"), to be sent as `Link: <...>; rel=modulepreload` with the shell of its address, so that
 * they download with the main script instead of once it has run: the page's chunk and the chunks it
 * imports statically, less those the entry already imports.
 * @param manifest Vite's build manifest, keyed by source module or shared chunk
 * @param page the page's module, e.g. `src/pages/job.tsx`
 * @returns `/assets/...` paths, the page's chunk first; none when the manifest has no such page
 */
export function pageScripts(manifest: Record<string, ManifestChunk>, page: string): string[] {
  const closure = (key: string, seen: Set<string>): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return seen;
    seen.add(key);
    for (const next of chunk.imports ?? []) closure(next, seen);
    return seen;
  };
  const shell = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, shell);
  return [...closure(page, new Set())].filter((key) => !shell.has(key)).map((key) => `/${manifest[key]!.file}`);
}

/** The build manifest of the console in `dir`, or an empty one when there is none (an older build, a test's folder). */
async function readManifest(dir: string): Promise<Record<string, ManifestChunk>> {
  const file = path.join(dir, '.vite', 'manifest.json');
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) return {};
  const chunks: Record<string, ManifestChunk> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'object' || value === null || !('file' in value) || typeof value.file !== 'string') continue;
    const imports = 'imports' in value && Array.isArray(value.imports) ? value.imports.filter((i: unknown): i is string => typeof i === 'string') : [];
    chunks[key] = { file: value.file, imports, isEntry: 'isEntry' in value && value.isEntry === true };
  }
  return chunks;
}

/**
 * The built files served at fixed paths outside `/assets/`: [path, content type, cache-control].
 * The service worker and the manifest are revalidated on every load (`no-cache`), so a new
 * release's worker is found at once (docs/console.md "On a phone: the installable app"); the
 * worker lives at the root, so its scope is the whole console without a Service-Worker-Allowed
 * header.
 */
const ROOT_FILES: Array<[file: string, type: string, cache: string]> = [
  ['favicon.svg', 'image/svg+xml', DAY],
  ['robots.txt', 'text/plain; charset=utf-8', DAY],
  ['sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
  ['manifest.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
  ['icons/icon-192.png', 'image/png', DAY],
  ['icons/icon-512.png', 'image/png', DAY],
  ['icons/icon-maskable-512.png', 'image/png', DAY],
  ['icons/apple-touch-icon.png', 'image/png', DAY],
];

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Caretaker</title></head><body>' +
  '<main><h1>Caretaker</h1><p>The console has not been built yet: run <code>npm run console:build</code> ' +
  '(<code>npm install</code> does it) and reload. The API is at <a href="/docs">/docs</a>.</p></main></body></html>';

/**
 * Answers a request the router found no route for with the app shell when it is a GET or HEAD of
 * a console path (see `isConsolePath`). Called first by the app's not-found handler.
 * @returns true when it answered, false when the caller should answer 404
 */
export type ConsoleShell = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * Registers the console routes (all `public`: the page itself holds no data; every API call it
 * makes is authorised as usual): `/` and `/index.html` (the shell), `/assets/*`, and ROOT_FILES (`/favicon.svg`, `/sw.js`,
 * `/manifest.webmanifest`, the app icons under `/icons/`).
 * @param dir the built console folder (default `consoleDistDir()`); a missing build serves a
 *   short page saying how to build it instead of the app
 * @returns the shell for the not-found handler (client routes such as `/jobs/<uuid>`); not a
 *   wildcard route, so the router's own answers (414 for an over-long path parameter) stay as
 *   they are
 */
export async function registerConsole(app: FastifyInstance, dir: string = consoleDistDir()): Promise<ConsoleShell> {
  const indexFile = path.join(dir, 'index.html');
  const manifest = await readManifest(dir);
  const scriptsOf = new Map<string, string[]>(Object.values(FIRST_VIEW_PAGES).map((page) => [page, pageScripts(manifest, page)]));
  const sendShell = async (reply: FastifyReply, url = '/') => {
    const html = existsSync(indexFile) ? await readFile(indexFile, 'utf8') : NOT_BUILT;
    const reads = firstViewReads(url);
    const page = firstViewPage(url);
    const jobPage = page === FIRST_VIEW_PAGES.job;
    // A job's page preloads its reads and its scripts at a low priority, so that the shell's script
    // does not share a slow line with them: nothing of them is used before the shell runs. On Slow
    // 4G a first visit's shell then arrived about 0.5 s sooner and its LCP came 3.5 s -> 2.9 s
    // (bench/README.md "A job page's first visit"); with only one of the two lowered, nothing changed.
    const priority = jobPage ? '; fetchpriority=low' : '';
    // `crossorigin`: the same mode and credentials as the console's fetch, so its fetch takes the preloaded answer.
    const links = reads.map((r) => `<${r}>; rel=preload; as=fetch; crossorigin${priority}`);
    // A lazily loaded first view (a job's page, signing in): its scripts too, fetched as the module
    // loader fetches them (CORS, same-origin credentials).
    if (page) links.push(...(scriptsOf.get(page) ?? []).map((s) => `<${s}>; rel=modulepreload; crossorigin${priority}`));
    if (links.length) reply.header('link', links.join(', '));
    return reply.status(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public', credentials: false, rateLimit: { ipMax: CONSOLE_FILES_IP_MAX } };
    });
    if (existsSync(path.join(dir, 'assets'))) {
      await scope.register(fastifyStatic, {
        root: path.join(dir, 'assets'),
        prefix: '/assets/',
        decorateReply: false,
        index: false,
        immutable: true,
        maxAge: '365d',
        // The .br and .gz copies written by scripts/console-build.js, for browsers that accept them
        // (so a shared cache keeps one copy per encoding).
        preCompressed: true,
        setHeaders: (res: { setHeader(name: string, value: string): unknown }) => res.setHeader('vary', 'accept-encoding'),
        schemaHide: true,
      });
    }
    scope.get('/', { schema: { hide: true } }, async (_request, reply) => sendShell(reply));
    // The service worker precaches the shell under its file name (src/sw.ts).
    scope.get('/index.html', { schema: { hide: true } }, async (_request, reply) => sendShell(reply));
    for (const [file, type, cache] of ROOT_FILES) {
      scope.get(`/${file}`, { schema: { hide: true } }, async (_request, reply) => {
        const full = path.join(dir, file);
        if (!existsSync(full)) return reply.callNotFound();
        return reply.header('cache-control', cache).type(type).send(await readFile(full));
      });
    }
  });
  return async (request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isConsolePath(request.url)) return false;
    await sendShell(reply, request.url);
    return true;
  };
}
