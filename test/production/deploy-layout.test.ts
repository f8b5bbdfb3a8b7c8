/**
 * The production image's runtime layout (Dockerfile, docs/deploy.md), built without Docker (images
 * cannot be pulled here): the same `npm ci --omit=dev --ignore-scripts` (from the local npm cache,
 * fetching from the registry only a tarball the cache lacks) and the same files the Dockerfile's
 * final stage copies (read from its COPY lines, so a folder added there is copied here too, and a
 * folder missing there fails here) in a temporary folder, made read-only and owned by root; a data
 * folder (migrated, with an admin) owned by `nobody`; then `caretaker serve` started as `nobody`
 * (setpriv) answers readiness, an authenticated status request and the console, and stops cleanly
 * on SIGTERM. Runs in the PGlite pass, as root (setpriv needs it), with npm on PATH.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CaretakerProcess, createProcessWorld, freePort, httpLogin, type ProcessWorld } from '../helpers/process.ts';
import { skipWithout } from '../helpers/skip.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NOBODY = 65534;
const run = promisify(execFile);

/**
 * What the Dockerfile's final stage copies from the build context or from a build stage's /app,
 * as paths relative to the repository (the source) and to /app (the target). node_modules is left
 * out: the test makes it with npm ci like the `deps` stage. A stage's build output (console/dist)
 * is taken from this checkout, where `npm run build` or the test setup made it.
 */
function runtimeCopies(dockerfile: string): Array<{ from: string; to: string }> {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n');
  const finalStage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)));
  return finalStage.flatMap((line) => {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toUpperCase() !== 'COPY') return [];
    const args = words.slice(1).filter((w) => !w.startsWith('--'));
    const fromStage = words.some((w) => w.startsWith('--from='));
    const dest = path.posix.normalize(args.pop() ?? '.');
    return args.flatMap((arg) => {
      const from = path.posix.relative(fromStage ? '/app' : '.', fromStage ? arg : path.posix.normalize(arg));
      if (from.split('/').includes('node_modules')) return [];
      const to = dest === '.' || dest.endsWith('/') ? path.posix.join(dest, path.posix.basename(from)) : dest;
      return [{ from, to: path.posix.normalize(to) }];
    });
  });
}

/** Every path under `dir` with its size, for comparing a tree before and after. */
async function listing(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => path.join(e.parentPath, e.name)).sort();
}

describe.skipIf(
  skipWithout(
    !process.env.DATABASE_URL && process.getuid?.() === 0,
    'the image layout test runs once, in the PGlite pass, as root (it switches to nobody with setpriv)',
  ),
)('the production layout', () => {
  let dir = '';
  let proc: CaretakerProcess | undefined;
  let world: ProcessWorld | undefined;
  afterAll(async () => {
    proc?.signal('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
    await world?.drop();
  });

  it('starts read-only as an unprivileged user and answers', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'caretaker-image-'));
    await chmod(dir, 0o755); // mkdtemp makes it 0700: the unprivileged user must reach app/ and data/
    const app = path.join(dir, 'app');
    // Stage "deps": npm ci --omit=dev --ignore-scripts, from the local cache where it has the
    // tarball (the suite's own npm ci filled it). Not --offline: npm ci may install a package without
    // leaving its tarball in the cache's index (typescript, a devOptional package that --omit=dev
    // still installs, on one machine), and the Dockerfile's stage fetches from the registry too.
    await cp(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
    await cp(path.join(ROOT, 'package-lock.json'), path.join(app, 'package-lock.json'));
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, timeout: 400_000 });
    await rm(path.join(app, 'package-lock.json'));
    // The final stage's COPY lines.
    const copies = runtimeCopies(await readFile(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(copies.map((c) => c.to)).toEqual(expect.arrayContaining(['package.json', 'bin', 'src', 'console/dist']));
    for (const { from, to } of copies) await cp(path.join(ROOT, from), path.join(app, to), { recursive: true });
    await run('chown', ['-R', 'root:root', app]);
    await run('chmod', ['-R', 'a-w,a+rX', app]);
    const before = await listing(app);
    // The volume: owned by the unprivileged user (the image's `node`; here `nobody`).
    world = await createProcessWorld('pglite');
    const data = world.dataDir;
    await run('chown', ['-R', `${NOBODY}:${NOBODY}`, data]);

    const port = await freePort();
    const child = spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', process.execPath, 'bin/caretaker.js', 'serve'], {
      cwd: app,
      // Only what the image sets and the container adds (no inherited compile cache or test variables).
      env: { PATH: '/usr/bin:/bin', NODE_ENV: 'production', CARETAKER_DATA_DIR: data, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = new CaretakerProcess(child, port);
    await proc.waitReady(120_000);

    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    expect(status).toMatch(new RegExp(`^Uid:\\s+${NOBODY}\\s+${NOBODY}`, 'm'));
    // The platform status needs authentication (docs/api.md): log in as the world's admin.
    const { token } = await httpLogin(proc.url, world.admin.email, world.admin.password);
    const res = await fetch(`${proc.url}/api/system/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('ok');
    const page = await fetch(`${proc.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    proc.signal('SIGTERM');
    // The server's own log goes with a failure: the exit code alone does not say which part of the
    // shutdown failed (docs/operations.md "Shutdown and health").
    expect((await proc.waitExit(20_000)).code, proc.log).toBe(0);
    expect(await listing(app)).toEqual(before);
    expect(proc.log).not.toMatch(/EACCES|EROFS/);
  }, 600_000);
});
