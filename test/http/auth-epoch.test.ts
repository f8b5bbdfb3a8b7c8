/**
 * The auth epoch moves on after the writes that change what a token stands for, made by the services
 * through `changeIdentity` (src/core/auth-epoch.ts; docs/security.md "Token lookup cache"), and
 * only after them: a token whose lookup is cached is refused at once after its account is disabled,
 * its agency suspended or its sessions revoked, while a job creation leaves the cache usable.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../helpers/app.ts';

describe('the auth epoch moves with identity writes', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let bumps: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    bumps = vi.spyOn(t.deps.authEpoch, 'bump');
  });
  afterAll(async () => {
    bumps?.mockRestore();
    await t?.close();
  });

  it('a job creation does not move it', async () => {
    const before = bumps.mock.calls.length;
    expect((await w.agentA1.client.post('/api/jobs/manage', { title: 'Dripping tap', priority: 3 })).statusCode).toBe(201);
    expect(bumps.mock.calls.length).toBe(before);
  });

  it('disabling an account moves it, and the account\'s cached token is refused at once', async () => {
    const agent = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(200);
    const before = bumps.mock.calls.length;
    expect((await w.adminA.client.post(`/api/users/${agent.user.uuid}/disable`)).statusCode).toBe(200);
    expect(bumps.mock.calls.length).toBe(before + 1);
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('revoking one\'s other sessions moves it, and the revoked token is refused at once', async () => {
    const agent = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    const other = await userClient(t, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id });
    expect((await other.client.get('/api/auth/me')).statusCode).toBe(200);
    const before = bumps.mock.calls.length;
    expect((await other.client.delete(`/api/users/${agent.user.uuid}/sessions`)).statusCode).toBe(403);
    expect(bumps.mock.calls.length).toBe(before);
    expect((await w.adminA.client.delete(`/api/users/${agent.user.uuid}/sessions`)).statusCode).toBe(200);
    expect(bumps.mock.calls.length).toBe(before + 1);
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('suspending an agency moves it, and its accounts are refused at once', async () => {
    expect((await w.adminB.client.get('/api/auth/me')).statusCode).toBe(200);
    const before = bumps.mock.calls.length;
    expect((await w.sysops.client.post(`/api/agencies/${w.agencyB.uuid}/suspend`, { reason: 'Unpaid invoices' })).statusCode).toBe(200);
    expect(bumps.mock.calls.length).toBe(before + 1);
    expect((await w.adminB.client.get('/api/auth/me')).statusCode).toBe(403);
  });
});
