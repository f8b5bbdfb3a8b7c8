import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { activity, insertJob } from '../../helpers/roles-branches.ts';

describe('agents and job assignment', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let agentA2: Awaited<ReturnType<typeof createUser>>;
  let senior: Awaited<ReturnType<typeof createUser>>;
  let disabled: Awaited<ReturnType<typeof createUser>>;
  let agentB1: Awaited<ReturnType<typeof createUser>>;
  const owner = async (jobId: number) => (await t.db.selectFrom('jobs').select('agent_user_id').where('id', '=', jobId).executeTakeFirstOrThrow()).agent_user_id;
  const setSharing = (branchId: number, on: boolean) => t.db.updateTable('branches').set({ sharing_enabled: on }).where('id', '=', branchId).execute();

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    await setSharing(w.a2.id, false);
    agentA2 = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a2.id, name: 'Bea A2' });
    const role = (await w.adminA.client.post('/api/admin/roles', { name: 'Senior agent', level: 60, permissions: ['api.jobs.manage.manage'] })).json().data;
    senior = await createUser(t.db, { role: role.code, agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Cal Senior' });
    disabled = await createUser(t.db, { role: 'agent', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Dee Disabled', status: 'disabled' });
    agentB1 = await createUser(t.db, { role: 'agent', agencyId: w.agencyB.id, branchId: w.b1.id, name: 'Eve B1' });
    // Not agents: an admin attached to a branch, a contractor account.
    await createUser(t.db, { role: 'admin', agencyId: w.agencyA.id, branchId: w.a1.id, name: 'Branch admin' });
    await createUser(t.db, { role: 'contractor', agencyId: w.agencyA.id, name: 'Contractor' });
  });
  afterAll(async () => t?.close());

  describe('GET /api/agents', () => {
    it('lists the agents of the caller\'s agency by branch and name', async () => {
      const res = await w.adminA.client.get('/api/agents');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(4);
      expect(body.data.map((a: { name: string }) => a.name)).toEqual(['Cal Senior', 'Dee Disabled', 'Test agent', 'Bea A2']);
      expect(body.data[0]).toEqual({
        uuid: senior.uuid,
        name: 'Cal Senior',
        email: senior.email,
        role: 'Senior agent',
        status: 'active',
        branch: { uuid: w.a1.uuid, name: 'A1' },
      });
      expect(body.data[1].status).toBe('disabled');
    });

    it('filters by branch_uuid and q, paginates; another agency\'s branch is 404; SysOps see all', async () => {
      const a2 = await w.agentA1.client.get(`/api/agents?branch_uuid=${w.a2.uuid}`);
      expect(a2.json().data.map((a: { uuid: string }) => a.uuid)).toEqual([agentA2.uuid]);
      expect((await w.adminA.client.get('/api/agents?q=SENIOR')).json().count).toBe(1);
      const page = await w.adminA.client.get('/api/agents?limit=1&offset=3');
      expect(page.json()).toMatchObject({ count: 4, data: [{ name: 'Bea A2' }] });
      const cross = await w.adminA.client.get(`/api/agents?branch_uuid=${w.b1.uuid}`);
      expect(cross.statusCode).toBe(404);
      expect(cross.json().error).toBe('Branch not found');
      expect((await w.sysops.client.get('/api/agents')).json().count).toBe(5);
      expect((await w.adminB.client.get('/api/agents')).json().data.map((a: { name: string }) => a.name)).toEqual(['Eve B1']);
    });

    it('needs the permission', async () => {
      const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
      expect((await tenant.client.get('/api/agents')).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/agents' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/agents/job-assignment', () => {
    it('gives a job of the branch an owning agent, logged as job.agent_assign', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a1.id);
      const res = await w.agentA1.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: senior.uuid });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: { job_uuid: job.uuid, reference: job.reference, agent: { uuid: senior.uuid, name: 'Cal Senior', branch_uuid: w.a1.uuid } },
        message: `Job ${job.reference} assigned to Cal Senior`,
      });
      expect(await owner(job.id)).toBe(senior.id);
      expect((await activity(t.db, 'job.agent_assign')).at(-1)).toMatchObject({
        resource_type: 'job',
        resource_id: job.id,
        agency_id: w.agencyA.id,
        user_id: w.agentA1.user.id,
        details: { agent_user_id: senior.id, previous_agent_user_id: null },
      });
      const cleared = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().data.agent).toBeNull();
      expect(await owner(job.id)).toBeNull();
      expect((await activity(t.db, 'job.agent_unassign')).at(-1)!.details).toEqual({ agent_user_id: null, previous_agent_user_id: senior.id });
    });

    it('takes an agent of another branch only when the job\'s branch shares (else 409)', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a1.id);
      const refused = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: agentA2.uuid });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toBe("The agent is not in the job's branch, and that branch does not share its jobs");
      expect(await owner(job.id)).toBeNull();
      await setSharing(w.a1.id, true);
      try {
        const ok = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: agentA2.uuid });
        expect(ok.statusCode).toBe(200);
        expect(await owner(job.id)).toBe(agentA2.id);
      } finally {
        await setSharing(w.a1.id, false);
      }
    });

    it('refuses a disabled agent (409) and a closed job (409)', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a1.id);
      const off = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: disabled.uuid });
      expect(off.statusCode).toBe(409);
      expect(off.json().error).toBe('The agent account is disabled');
      const closed = await insertJob(t.db, w.agencyA.id, w.a1.id, 9);
      const res = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: closed.uuid, agent_uuid: senior.uuid });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('The job is closed or cancelled');
      expect(await owner(job.id)).toBeNull();
      expect(await owner(closed.id)).toBeNull();
    });

    it('answers 404 for an unknown or other agency\'s job, and for an agent of another agency or a non-agent', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a1.id);
      const jobB = await insertJob(t.db, w.agencyB.id, w.b1.id);
      const crossJob = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: jobB.uuid, agent_uuid: senior.uuid });
      expect(crossJob.statusCode).toBe(404);
      expect(crossJob.json().error).toBe('Job not found');
      expect((await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: '00000000-0000-4000-8000-000000000000', agent_uuid: senior.uuid })).statusCode).toBe(404);
      const crossAgent = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: agentB1.uuid });
      expect(crossAgent.statusCode).toBe(404);
      expect(crossAgent.json().error).toBe('Agent not found');
      const notAgent = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: w.adminA.user.uuid });
      expect(notAgent.statusCode).toBe(404);
      // An agent does not see jobs of a branch that does not share.
      const otherBranch = await insertJob(t.db, w.agencyA.id, w.a2.id);
      expect((await w.agentA1.client.post('/api/agents/job-assignment', { job_uuid: otherBranch.uuid, agent_uuid: agentA2.uuid })).statusCode).toBe(404);
      expect(await owner(job.id)).toBeNull();
      expect(await owner(jobB.id)).toBeNull();
    });

    it('a job seen only through sharing is read-only for an agent of another branch (403, logged)', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a2.id);
      await setSharing(w.a2.id, true);
      try {
        const res = await w.agentA1.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: agentA2.uuid });
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe("Jobs of another branch are read-only for you; ask an agent of the job's branch");
        expect((await activity(t.db, 'authorization.deny')).at(-1)).toMatchObject({ user_id: w.agentA1.user.id, resource_id: job.id });
        expect(await owner(job.id)).toBeNull();
      } finally {
        await setSharing(w.a2.id, false);
      }
    });

    it('validates the body and needs the permission and a CSRF token', async () => {
      const job = await insertJob(t.db, w.agencyA.id, w.a1.id);
      expect((await w.adminA.client.post('/api/agents/job-assignment', { agent_uuid: senior.uuid })).statusCode).toBe(400);
      const missing = await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error).toBe('Invalid or missing required parameter: agent_uuid');
      expect((await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: 'x', agent_uuid: senior.uuid })).statusCode).toBe(400);
      expect((await w.adminA.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: senior.uuid }, { csrf: false })).statusCode).toBe(403);
      const contractor = await userClient(t, { role: 'contractor', agencyId: w.agencyA.id });
      expect((await contractor.client.post('/api/agents/job-assignment', { job_uuid: job.uuid, agent_uuid: senior.uuid })).statusCode).toBe(403);
      expect(await owner(job.id)).toBeNull();
    });
  });
});
