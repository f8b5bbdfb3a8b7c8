/**
 * docs/security.md promise 26: login failures are reserved atomically before the password hash is
 * checked, so N parallel wrong passwords check at most the limit (memory and Redis stores).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAgency, createUser, login, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';

describe('parallel brute force on one account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_LOGIN_ACCOUNT_FAILURES: '10' });
  });
  afterAll(async () => t?.close());

  // The users' hashes are at the service's cost (serviceCostHash): each check then takes as long
  // as in production, which keeps the window for a race between the checks open as wide.
  it('25 parallel wrong passwords: at most 10 are checked, the rest are 429', async () => {
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id, serviceCostHash: true });
    const attempts = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: `wrong-password-${i}` } })),
    );
    const statuses = attempts.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const checked = await t.db.selectFrom('activity_log').select('id').where('action', '=', 'auth.login_failed').where('user_id', '=', user.id).execute();
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(attempts.find((r) => r.statusCode === 429)?.headers['retry-after']).toBeDefined();
  });

  it('a right password gives back its reservation: successful logins never lock anyone out', async () => {
    const agency = await createAgency(t.db);
    const user = await createUser(t.db, { role: 'admin', agencyId: agency.id, serviceCostHash: true });
    for (let i = 0; i < 11; i++) await login(t.app, user.email, TEST_PASSWORD);
  });
});
