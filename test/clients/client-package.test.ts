/**
 * The typed client as a package (clients/typescript, docs/api.md "Typed client"): a clean copy of
 * its folder (no node_modules, no dist, outside the repository, so nothing of the repository's
 * install is on its PATH) installs its declared dependencies, and `npm pack` there builds it (its
 * `prepack` script, TypeScript a devDependency) and writes the tarball, which is installed into an empty project from the local npm
 * cache where it can (`--prefer-offline`: the tarball of openapi-fetch, its one dependency, is in
 * the cache since the repository's own install; npm may still ask the registry for its metadata);
 * then the README's example, copied out of clients/typescript/README.md as written
 * (only the base URL changed), runs against the app with the demo data on Node 20 (the system
 * `node`, when there is one) and on the Node running this test; and a TypeScript consumer
 * type-checks against the package's declarations (results without undefined, typed uploads,
 * binary answers typed as Blob / ArrayBuffer / stream, an unknown query parameter refused).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../../src/seed/demo/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/** Runs a child without blocking this process, which serves the app the child calls. */
const run = async (file: string, args: string[], cwd: string) => (await promisify(execFile)(file, args, { cwd, encoding: 'utf8' })).stdout;

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const pkg = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };

/** The system's Node when it is an older major than the one running the test (Node 20 here). */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(version.slice(1).split('.')[0]) < Number(process.versions.node.split('.')[0])) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

describe('the client package', () => {
  let t: TestApp;
  let baseUrl: string;
  let project: string;
  let clean: string;
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

  beforeAll(async () => {
    t = await buildTestApp();
    await loadDemoIfEmpty(t.db, t.config, t.clock.now());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    project = mkdtempSync(path.join(tmpdir(), 'caretaker-client-'));
    clean = mkdtempSync(path.join(tmpdir(), 'caretaker-client-source-'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (project) rmSync(project, { recursive: true, force: true });
    if (clean) rmSync(clean, { recursive: true, force: true });
  });

  it('is versioned with the API, declares openapi-fetch, and TypeScript for its build', () => {
    expect(pkg.name).toBe('@caretaker/client');
    expect(pkg.version).toBe(t.config.version);
    expect(Object.keys(pkg.dependencies)).toEqual(['openapi-fetch']);
    expect(Object.keys(pkg.devDependencies)).toEqual(['typescript']);
    expect(pkg.scripts.prepack).toBe('npm run build');
  });

  it('packs from a clean copy, installs offline into an empty project, and runs the README example on Node 20 and the current Node', async () => {
    for (const entry of ['package.json', 'tsconfig.json', 'README.md', 'openapi.json', 'src']) cpSync(path.join(CLIENT, entry), path.join(clean, entry), { recursive: true });
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], clean);
    const out = npm(['pack', '--pack-destination', project, '--json'], clean);
    const { filename, files } = (JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    expect(files.map((f) => f.path).sort()).toEqual(['README.md', 'dist/binary.d.ts', 'dist/binary.js', 'dist/index.d.ts', 'dist/index.js', 'dist/schema.d.ts', 'openapi.json', 'package.json']);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(project, filename)], project);
    expect(readdirSync(path.join(project, 'node_modules'))).toEqual(expect.arrayContaining(['@caretaker', 'openapi-fetch']));

    const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(example).toContain("'http://127.0.0.1:3000'");
    writeFileSync(path.join(project, 'demo.mjs'), example.replace("'http://127.0.0.1:3000'", `'${baseUrl}'`));
    const nodes = [olderNode(), process.execPath].filter((n): n is string => n !== undefined);
    for (const node of nodes) {
      const output = await run(node, ['demo.mjs'], project);
      const lines = output.trim().split('\n');
      expect(lines[0], node).toMatch(/^JOB-\d{6} Reported$/);
      expect(lines.slice(1, 6).every((l) => /^JOB-\d{6} /.test(l)), output).toBe(true);
      expect(lines[6]).toMatch(/^text\/csv;\s?charset=utf-8 \d+$/);
      expect(lines[7]).toBe('404 Job not found');
      expect(lines[8]).toBe('NotFoundError true');
      expect(lines[9]).toBe('true');
      expect(lines[10]).toBe('ready');
      expect(lines[11]).toBe('access.txt 33');
      expect(lines[12]).toBe('Key safe code is with the agent.');
      expect(readFileSync(path.join(project, 'jobs-register.csv'), 'utf8').split('\n')[0]).toContain(',');
    }
  }, 300_000);

  it('type-checks a TypeScript consumer: results without undefined, typed uploads, binary answers as Blob, ArrayBuffer and stream, JSON paths refused by download, unknown query parameters refused', () => {
    writeFileSync(
      path.join(project, 'consumer.ts'),
      [
        "import { createCaretakerClient, BINARY_GETS, type BinaryGet } from '@caretaker/client';",
        "const api = createCaretakerClient({ baseUrl: 'http://127.0.0.1:3000' });",
        "const pdf: Blob = (await api.download('/api/invoices/{uuid}/pdf', { params: { path: { uuid: 'x' } } })).data;",
        "const csv: ArrayBuffer = (await api.downloadArrayBuffer('/api/invoices/export/bills.csv')).data;",
        "const first: BinaryGet = BINARY_GETS[0];",
        "// @ts-expect-error a JSON operation is not a download",
        "await api.download('/api/jobs/manage');",
        "const jobs = await api.GET('/api/jobs/manage', { params: { query: { limit: 5 } } });",
        'const title: string | undefined = jobs.data.data[0]?.title;',
        "const job = await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: 'x' } } });",
        'const count: number = jobs.data.count, reference: string = job.data.data.reference;',
        '// @ts-expect-error an unknown query parameter',
        "await api.GET('/api/jobs/manage', { params: { query: { limit: 5, colour: 'red' } } });",
        "const photo = await api.POST('/api/jobs/{uuid}/photos', { params: { path: { uuid: 'x' } }, body: { file: new Uint8Array([1]), filename: 'boiler.png', description: 'Boiler' } });",
        "const doc = await api.POST('/api/jobs/{uuid}/documents', { params: { path: { uuid: 'x' } }, body: { file: new Blob(['notes']).stream(), filename: 'notes.txt' } });",
        "const stream: ReadableStream<Uint8Array> = (await api.downloadStream('/api/agencies/current/export')).data;",
        'const names: string[] = [photo.data.data.filename, doc.data.data.filename];',
        'export { pdf, csv, first, title, count, reference, stream, names };',
        '',
      ].join('\n'),
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom', 'consumer.ts'];
    const result = (() => {
      try {
        return execFileSync(process.execPath, [tsc, ...args], { cwd: project, encoding: 'utf8' });
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? err);
      }
    })();
    expect(result).toBe('');
  }, 120_000);
});
