/**
 * docs/security.md promise 18: no token, password, CSRF token or cookie value in any log line, with the
 * request logger at its most verbose.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/main/app.ts';
import { buildTestApp, createAgency, createUser, logLines, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

describe('logs', () => {
  it('never contain a token, password, CSRF token or cookie value', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(t.deps, { logger: { level: 'trace', stream } });
    await app.ready();
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
    const token = login.json().token as string;
    const cookie = login.cookies.find((c) => c.name === 'caretaker_session')!.value;
    const csrfToken = (await app.inject({ method: 'GET', url: '/api/security/csrf-token', cookies: { caretaker_session: cookie } })).json().data.token as string;
    await app.inject({ method: 'POST', url: '/api/jobs/manage', headers: { authorization: `Bearer ${token}`, 'x-csrf-token': csrfToken }, payload: { title: 'x', priority: 1 } });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'a-wrong-password' } });
    await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}`, cookie: `caretaker_session=${cookie}` } });
    await app.close();
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [token, cookie, csrfToken, TEST_PASSWORD, 'a-wrong-password']) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('expected failures of outside services', () => {
  it('log the workflow engine\'s 503 (not configured) and 502 (engine down) as warnings without a stack trace', async () => {
    const { lines, stream } = logLines();
    const engineDown = { ...t.config, workflowEngine: { url: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 500 } };
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    for (const [deps, status] of [[t.deps, 503], [{ ...t.deps, config: engineDown }, 502]] as const) {
      const app = await buildApp(deps, { logger: { level: 'info', stream } });
      await app.ready();
      const token = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } })).json().token as string;
      const res = await app.inject({ method: 'GET', url: '/api/workflow-engine/workflows?action=list', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, res.body).toBe(status);
      await app.close();
    }
    const failures = lines.filter((l) => typeof l.msg === 'string' && /failed|unavailable/.test(l.msg));
    expect(failures.map((l) => [l.level, l.status, l.msg])).toEqual([
      [40, 503, 'service unavailable'],
      [40, 502, 'outside service failed'],
    ]);
    expect(JSON.stringify(failures)).not.toMatch(/stack|\n\s+at /);
  });
});
