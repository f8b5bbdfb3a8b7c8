/**
 * The `caretaker` command line (README "The `caretaker` command"), spawned as a user would run it:
 * --version, --help and `help COMMAND` on every command (never starting anything), unknown
 * commands, `config check` against reachable and unreachable services, and `doctor` against a
 * running instance with and without a SysOps token.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { hashPassword } from '../../src/lib/passwords.ts';
import { createProcessWorld, freePort, httpLogin, runCaretaker, startCaretaker, stopAllProcesses, type ProcessWorld } from '../helpers/process.ts';
import { startSmtpServer } from '../people/users/mail-helpers.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const COMMANDS: string[][] = [
  ['serve'],
  ['worker'],
  ['migrate'],
  ['demo'],
  ['config'],
  ['config', 'check'],
  ['doctor'],
  ['mcp'],
  ['push'],
  ['push', 'vapid-keys'],
  ['storage'],
  ['storage', 'migrate'],
  ['backup'],
  ['restore'],
  ['verify-backup'],
];

const dirs: string[] = [];
async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'caretaker-cli-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await stopAllProcesses();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('help and version', () => {
  it('--version prints the package version', async () => {
    const run = await runCaretaker(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('--help lists every command', async () => {
    const run = await runCaretaker(['--help']);
    expect(run.code).toBe(0);
    for (const name of ['serve', 'worker', 'migrate', 'backup', 'restore', 'verify-backup', 'demo', 'config', 'doctor', 'mcp', 'push', 'storage', 'help']) expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it.each(COMMANDS.map((c) => [c.join(' '), c]))('%s --help and help %s print its usage and start nothing', async (_name, words) => {
    const dataDir = await scratch();
    const port = await freePort();
    const env = { CARETAKER_DATA_DIR: dataDir, PORT: String(port) };
    const runs = [await runCaretaker([...words, '--help'], env, 20_000)];
    if (words.length === 1) runs.push(await runCaretaker(['help', ...words], env, 20_000));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: caretaker ${words.join(' ')} `);
      expect(run.stdout).not.toMatch(/opening|migrating|serving/);
      expect(run.stderr).toBe('');
    }
    // Nothing was created: no database, no files.
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  it('an unknown command is a usage error (exit 2) that names it', async () => {
    const run = await runCaretaker(['serv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'serv'");
  });

  it('an invalid variable is one line naming it (exit 2)', async () => {
    const run = await runCaretaker(['serve'], { PORT: 'eighty' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("caretaker: Invalid configuration: PORT must be a whole number (got 'eighty')\n");
  });
});

describe('config check', () => {
  it('says what it found and exits 0 when nothing is wrong', async () => {
    const smtp = await startSmtpServer();
    try {
      const env: Record<string, string> = { CARETAKER_DATA_DIR: await scratch(), PORT: String(await freePort()), SMTP_URL: smtp.url };
      if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
      if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
      const run = await runCaretaker(['config', 'check'], env);
      expect(run.stdout).toMatch(/^ok +environment +every variable parses$/m);
      expect(run.stdout).toMatch(/^ok +address +127\.0\.0\.1:\d+ can be bound$/m);
      expect(run.stdout).toMatch(/^ok +smtp +smtp:\/\/127\.0\.0\.1:\d+ accepted the connection$/m);
      expect(run.stdout).toMatch(process.env.DATABASE_URL ? /^ok +database +PostgreSQL at .* answers$/m : /^info +database +embedded PGlite in /m);
      expect(run.stdout).toMatch(process.env.REDIS_URL ? /^ok +redis +.* answers PING$/m : /^info +redis +not configured/m);
      expect(run.stdout).toMatch(/^info +links +e-mail links start with http:\/\/127\.0\.0\.1:\d+$/m);
      expect(run.stdout).toContain('No problems found.');
      expect(run.code).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('reports every unreachable service, masks the secrets, and exits 1', async () => {
    const [pgPort, redisPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
    const run = await runCaretaker(['config', 'check'], {
      CARETAKER_DATA_DIR: await scratch(),
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://app:db-s3cret@127.0.0.1:${pgPort}/caretaker`,
      REDIS_URL: `redis://:redis-s3cret@127.0.0.1:${redisPort}`,
      SMTP_URL: `smtp://mailer:smtp-s3cret@127.0.0.1:${smtpPort}`,
      CARETAKER_DEMO_PASWORD: 'typo',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^FAIL +database +DATABASE_URL=postgres://app:\\*\\*\\*\\*@127\\.0\\.0\\.1:${pgPort}/caretaker: unreachable \\(ECONNREFUSED\\)\\. Fix: `, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^FAIL +redis +REDIS_URL=redis://:\\*\\*\\*\\*@127\\.0\\.0\\.1:${redisPort} is unreachable`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^FAIL +smtp +SMTP_URL=smtp://mailer:\\*\\*\\*\\*@127\\.0\\.0\\.1:${smtpPort}: .*ECONNREFUSED`, 'm'));
    expect(run.stdout).toMatch(/^warn +environment +CARETAKER_DEMO_PASWORD is not a Caretaker variable/m);
    expect(run.stdout).toContain('3 problems found.');
    expect(run.stdout + run.stderr).not.toContain('s3cret');
  });

  it('names an invalid variable and exits 1', async () => {
    const run = await runCaretaker(['config', 'check'], { CARETAKER_DATA_DIR: await scratch(), LOG_LEVEL: 'loud' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL +environment +Invalid configuration: LOG_LEVEL must be one of/m);
  });
});

describe('doctor', () => {
  let world: ProcessWorld | undefined;
  afterAll(async () => {
    await stopAllProcesses();
    await world?.drop();
  });

  it('reports liveness, readiness, status and the queue of a running instance', async () => {
    world = await createProcessWorld(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    // A SysOps account: the queue spans every agency.
    const handle = world.open();
    const sysops = { email: 'sysops@process.test', password: 'doctor sysops password' };
    try {
      const role = await handle.db.selectFrom('roles').select('id').where('code', '=', 'sysops').executeTakeFirstOrThrow();
      const now = new Date();
      await handle.db
        .insertInto('users')
        .values({ uuid: newUuid(), agency_id: null, branch_id: null, role_id: role.id, name: 'Ops', email: sysops.email, password_hash: await hashPassword(sysops.password), created_at: now, updated_at: now })
        .execute();
    } finally {
      await handle.close();
    }
    const server = await startCaretaker(world.env);
    await server.waitReady();

    const anonymous = await runCaretaker(['doctor', '--url', server.url]);
    expect(anonymous.stdout).toContain(`Caretaker at ${server.url}`);
    expect(anonymous.stdout).toMatch(/^ok +live +HTTP 200$/m);
    expect(anonymous.stdout).toMatch(/^ok +ready +HTTP 200$/m);
    expect(anonymous.stdout).toMatch(/^info +status +not shown: set CARETAKER_TOKEN/m);
    expect(anonymous.stdout).toMatch(/^info +queue +not shown: set CARETAKER_TOKEN/m);
    expect(anonymous.code).toBe(0);

    const { token } = await httpLogin(server.url, sysops.email, sysops.password);
    const withToken = await runCaretaker(['doctor'], { CARETAKER_TOKEN: token, CARETAKER_PUBLIC_URL: server.url });
    expect(withToken.stdout).toMatch(/^ok +status +ok, version .*, up \d+ s, database ok \((pglite|postgres)\), cache (ok|not_configured)/m);
    expect(withToken.stdout).toMatch(/^ok +queue +\d+ queues: \d+ waiting, \d+ retrying, \d+ running, \d+ failed; oldest waiting \d+ s; outbox \d+ unpublished/m);
    expect(withToken.stdout).toContain('Healthy.');
    expect(withToken.code).toBe(0);

    // An agency admin's token is refused the queue: doctor says so and fails.
    const admin = await httpLogin(server.url, world.admin.email, world.admin.password);
    const refused = await runCaretaker(['doctor', '--url', server.url], { CARETAKER_TOKEN: admin.token });
    expect(refused.stdout).toMatch(/^FAIL +queue +HTTP 403/m);
    expect(refused.code).toBe(1);
  }, 120_000);

  it('exits 1 with a fix when nothing answers', async () => {
    const port = await freePort();
    const run = await runCaretaker(['doctor', '--url', `http://127.0.0.1:${port}`]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL +reachable +no answer \(ECONNREFUSED\)\. Fix: start it/m);
  });
});
