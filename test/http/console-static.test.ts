/**
 * Serving the console (src/http/console.ts, docs/console.md): index.html with no-cache at / and
 * for client routes, hashed assets with a year-long immutable cache, never a fallback for /api or
 * /docs paths, and a page saying how to build when there is no build. On a bare Fastify instance
 * with a fake build, so it needs neither Vite nor a database.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SECTIONS, firstViewPage, firstViewReads, isConsolePath, pageScripts, registerConsole, type ConsoleShell } from '../../src/http/console.ts';

/** A script big enough to be worth compressing. */
const BIG = `export const rows = [${Array.from({ length: 500 }, (_, i) => `'row ${i}'`).join(', ')}];`;

describe('console static files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'console-dist-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Caretaker</title><script type="module" src="/assets/index-abc123.js"></script>');
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    // The build's brotli copy of a larger file (scripts/console-build.js).
    await writeFile(path.join(dir, 'assets', 'big-abc123.js'), BIG);
    await writeFile(path.join(dir, 'assets', 'big-abc123.js.br'), brotliCompressSync(BIG));
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function app(root: string) {
    const a = Fastify();
    const holder: { shell?: ConsoleShell } = {};
    a.setNotFoundHandler(async (request, reply) => {
      if (holder.shell && (await holder.shell(request, reply))) return reply;
      return reply.status(404).send({ success: false, error: `Route ${request.method} ${request.url} not found` });
    });
    holder.shell = await registerConsole(a, root);
    return a;
  }

  it('serves the shell at / and at client routes (with their query), never cached', async () => {
    const a = await app(dir);
    for (const url of ['/', '/jobs', '/jobs/1f0c9d5e-0000-4000-8000-000000000000', '/accept-invitation?token=abc', '/reset-password?token=abc']) {
      const res = await a.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('/assets/index-abc123.js');
    }
    const head = await a.inject({ method: 'HEAD', url: '/jobs' });
    expect(head.statusCode).toBe(200);
  });

  it("preloads the first view's API reads with the shell of the plain job board and of a job's page, nowhere else", async () => {
    const a = await app(dir);
    const job = '1f0c9d5e-0000-4000-8000-000000000000';
    const link = async (url: string) => (await a.inject({ url })).headers.link;
    expect(await link('/jobs')).toBe(
      '</api/jobs/manage?sort=created_at&order=desc&limit=20&offset=0>; rel=preload; as=fetch; crossorigin, </api/jobs/statuses>; rel=preload; as=fetch; crossorigin',
    );
    // A job's page at a low priority, behind the shell's script (src/http/console.ts).
    expect(await link(`/jobs/${job}`)).toBe(
      `</api/jobs/${job}>; rel=preload; as=fetch; crossorigin; fetchpriority=low, </api/jobs/statuses>; rel=preload; as=fetch; crossorigin; fetchpriority=low, </api/jobs/${job}/history>; rel=preload; as=fetch; crossorigin; fetchpriority=low`,
    );
    for (const url of ['/', '/jobs?status=2', '/jobs/new', `/jobs/${job}?tab=notes`, '/dashboard']) expect(await link(url), url).toBeUndefined();
    expect(firstViewReads('/addresses')).toEqual([]);
  });

  it("names a lazily loaded first view's own scripts from Vite's build manifest, less the shell's, and sends them as modulepreload with its shell", async () => {
    const manifest = {
      'index.html': { file: 'assets/index-a1.js', isEntry: true, imports: ['_shared-s1.js'] },
      '_shared-s1.js': { file: 'assets/shared-s1.js' },
      'src/pages/job.tsx': { file: 'assets/job-j1.js', isDynamicEntry: true, imports: ['index.html', '_shared-s1.js', '_small-m1.js'] },
      '_small-m1.js': { file: 'assets/small-m1.js', imports: ['_tiny-t1.js'] },
      '_tiny-t1.js': { file: 'assets/tiny-t1.js' },
      'src/pages/job-notes.tsx': { file: 'assets/job-notes-n1.js', isDynamicEntry: true, imports: ['index.html'] },
      'src/pages/sign-in.tsx': { file: 'assets/sign-in-a1.js', isDynamicEntry: true, imports: ['index.html', '_small-m1.js'] },
    };
    expect(pageScripts(manifest, 'src/pages/job.tsx')).toEqual(['/assets/job-j1.js', '/assets/small-m1.js', '/assets/tiny-t1.js']);
    expect(pageScripts({}, 'src/pages/job.tsx')).toEqual([]);
    expect(firstViewPage('/sign-in?next=%2Fjobs')).toBe('src/pages/sign-in.tsx');
    expect(firstViewPage('/reset-password?token=abc')).toBe('src/pages/password-links.tsx');
    for (const url of ['/', '/jobs', '/jobs/new', '/account', '/sign-in/x']) expect(firstViewPage(url), url).toBeNull();
    const built = await mkdtemp(path.join(tmpdir(), 'console-dist-'));
    try {
      await mkdir(path.join(built, '.vite'));
      await writeFile(path.join(built, 'index.html'), '<!doctype html><title>Caretaker</title>');
      await writeFile(path.join(built, '.vite', 'manifest.json'), JSON.stringify(manifest));
      const a = await app(built);
      const job = '1f0c9d5e-0000-4000-8000-000000000000';
      expect((await a.inject({ url: `/jobs/${job}` })).headers.link).toBe(
        `</api/jobs/${job}>; rel=preload; as=fetch; crossorigin; fetchpriority=low, </api/jobs/statuses>; rel=preload; as=fetch; crossorigin; fetchpriority=low, </api/jobs/${job}/history>; rel=preload; as=fetch; crossorigin; fetchpriority=low, ` +
          '</assets/job-j1.js>; rel=modulepreload; crossorigin; fetchpriority=low, </assets/small-m1.js>; rel=modulepreload; crossorigin; fetchpriority=low, </assets/tiny-t1.js>; rel=modulepreload; crossorigin; fetchpriority=low',
      );
      expect((await a.inject({ url: '/jobs' })).headers.link).not.toContain('modulepreload');
      // Signing in: the page's scripts at the normal priority (there are no reads to hold back).
      expect((await a.inject({ url: '/sign-in?next=%2Fjobs' })).headers.link).toBe(
        '</assets/sign-in-a1.js>; rel=modulepreload; crossorigin, </assets/small-m1.js>; rel=modulepreload; crossorigin, </assets/tiny-t1.js>; rel=modulepreload; crossorigin',
      );
      expect((await a.inject({ url: '/dashboard' })).headers.link).toBeUndefined();
    } finally {
      await rm(built, { recursive: true, force: true });
    }
  });

  it('serves hashed assets for a year, immutable; a missing asset is 404', async () => {
    const a = await app(dir);
    const res = await a.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await a.inject({ url: '/assets/nope-000.js' })).statusCode).toBe(404);
    expect((await a.inject({ url: '/favicon.svg' })).headers['content-type']).toContain('image/svg+xml');
  });

  it("serves the build's brotli copy to a browser that accepts it, and the file itself otherwise", async () => {
    const a = await app(dir);
    const br = await a.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);
    const plain = await a.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('never answers /api or /docs paths, nor other files, with the shell', async () => {
    const a = await app(dir);
    for (const url of ['/api/nope', '/api', '/docs/nope', '/robots.txt', '/something.php']) {
      const res = await a.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false });
    }
    expect((await a.inject({ method: 'POST', url: '/jobs' })).statusCode).toBe(404);
    expect(isConsolePath('/jobs?q=a.b')).toBe(true);
    expect(isConsolePath('/api/jobs')).toBe(false);
    expect(isConsolePath('/docs')).toBe(false);
    expect(isConsolePath('/apiary')).toBe(true);
  });

  it('answers a reload or bookmark of any console page with the app, a dot in its address too', async () => {
    const a = await app(dir);
    for (const url of ['/templates/job.received.email', '/templates/job.received.sms', '/flows/leak.v2', '/landlords/0b7f6a4e-6f0e-4d7e-9a55-1c2d3e4f5a6b', '/properties/0b7f6a4e-6f0e-4d7e-9a55-1c2d3e4f5a6b', '/jobs/x?tab=notes']) {
      const res = await a.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<title>Caretaker</title>');
    }
    // A file-looking path outside the console's sections stays a 404.
    expect((await a.inject({ url: '/templates.php' })).statusCode).toBe(404);
    expect((await a.inject({ url: '/api/messaging/templates/job.received.email/nope' })).statusCode).toBe(404);
  });

  it("knows every section of console/src/routes.tsx that has a parameter in its address", async () => {
    const routes = await readFile(path.join(import.meta.dirname, '../../console/src/routes.tsx'), 'utf8');
    const withParams = [...routes.matchAll(/path="\/([a-z-]+)\/[^"]*:[a-z_]+/g)].map((m) => m[1]!);
    expect(withParams.length).toBeGreaterThan(3);
    for (const section of withParams) expect(CONSOLE_SECTIONS.has(section), section).toBe(true);
  });

  it('without a build, / says how to build the console', async () => {
    const a = await app(path.join(dir, 'missing'));
    const res = await a.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run console:build');
  });
});
