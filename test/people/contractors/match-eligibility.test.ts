import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { assertContractorAssignable } from '../../../src/modules/people/contractors/eligibility.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertJob, tradeId } from './helpers.ts';

describe('matching contractors to a job, and the assignment check', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  const ids: Record<string, number> = {};
  let gasJob: { id: number; uuid: string };
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    const gas = await tradeId(t.db, 'gas');
    const plumbing = await tradeId(t.db, 'plumbing');
    const electrical = await tradeId(t.db, 'electrical');
    const make = async (client: typeof w.adminA.client, name: string, body: Record<string, unknown>, certs: Array<Record<string, unknown>>) => {
      const c = (await client.post('/api/contractors', { company_name: name, ...body })).json().data;
      for (const cert of certs) await client.post(`/api/contractors/${c.uuid}/certifications`, cert);
      ids[name] = (await t.db.selectFrom('contractors').select('id').where('uuid', '=', c.uuid).executeTakeFirstOrThrow()).id;
      return c;
    };
    await make(w.adminA.client, 'Gas Pro', { trade_ids: [gas], coverage: ['LS6'] }, [{ cert_type: 'gas_safe', reference: 'GS-1', expires_on: '2027-03-31' }]);
    await make(w.adminA.client, 'Far Gas', { trade_ids: [gas], coverage: ['YO1'] }, [{ cert_type: 'gas_safe', reference: 'GS-2', expires_on: '2027-01-31' }]);
    await make(w.adminA.client, 'Expired Gas', { trade_ids: [gas], coverage: ['LS6'] }, [
      { cert_type: 'gas_safe', reference: 'GS-3', expires_on: '2026-10-31' },
      { cert_type: 'gas_safe', reference: 'GS-3-older', expires_on: '2025-10-31' },
    ]);
    await make(w.adminA.client, 'Aqua Plumbing', { trade_ids: [plumbing], coverage: ['LS6'] }, []);
    await make(w.adminA.client, 'Sleeping Gas', { trade_ids: [gas], coverage: ['LS6'], active: false }, [{ cert_type: 'gas_safe', reference: 'GS-4', expires_on: '2027-03-31' }]);
    await make(w.adminA.client, 'Napit Sparks', { trade_ids: [electrical] }, [
      { cert_type: 'niceic', reference: 'NC-1', expires_on: '2026-09-30' },
      { cert_type: 'napit', reference: 'NP-1', expires_on: '2027-09-30' },
    ]);
    await make(w.adminA.client, 'Lapsed Sparks', { trade_ids: [electrical] }, [{ cert_type: 'niceic', reference: 'NC-2', expires_on: '2026-11-20' }]);
    await make(w.adminB.client, 'Southbank Gas', { trade_ids: [gas], coverage: ['LS6'] }, [{ cert_type: 'gas_safe', reference: 'GS-B', expires_on: '2027-03-31' }]);
    const address = (await w.adminA.client.post('/api/addresses', { line1: '4 Victoria Road', town: 'Leeds', postcode: 'LS6 1DL' })).json().data;
    gasJob = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, addressId: address.ID, tradeCode: 'gas' });
  });
  afterAll(async () => t?.close());

  it('ranks by trade, coverage of the postcode district and valid certificates, with reasons', async () => {
    const res = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${gasJob.uuid}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.job).toEqual({ uuid: gasJob.uuid, trade: 'gas', district: 'LS6', required_certificates: ['gas_safe'] });
    const ranked = body.data.map((r: { company_name: string; score: number; eligible: boolean }) => [r.company_name, r.score, r.eligible]);
    expect(ranked).toEqual([
      ['Gas Pro', 100, true],
      ['Far Gas', 70, true],
      ['Aqua Plumbing', 0, false],
      ['Expired Gas', 0, false],
      ['Lapsed Sparks', 0, false],
      ['Napit Sparks', 0, false],
    ]);
    expect(body.count).toBe(6);
    expect(body.data[0].reasons).toEqual(['Offers Gas', 'Covers LS6', 'Gas Safe certificate valid until 2027-03-31', 'No other open jobs']);
    expect(body.data[0]).toMatchObject({ offers_trade: true, covers_postcode: true, open_jobs: 0 });
    expect(body.data[1].reasons).toEqual(['Offers Gas', 'Does not cover LS6', 'Gas Safe certificate valid until 2027-01-31', 'No other open jobs']);
    expect(body.data[1]).toMatchObject({ offers_trade: true, covers_postcode: false });
    expect(body.data.find((r: { company_name: string }) => r.company_name === 'Expired Gas').reasons).toContain("Contractor's Gas Safe certificate expired on 2026-10-31");
    expect(body.data.find((r: { company_name: string }) => r.company_name === 'Aqua Plumbing').reasons).toEqual(['Does not offer Gas: not eligible for this job', 'Covers LS6', 'Contractor has no Gas Safe certificate', 'No other open jobs']);
    const page = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${gasJob.uuid}&limit=1&offset=1`);
    expect(page.json()).toMatchObject({ count: 6, data: [{ company_name: 'Far Gas' }] });
  });

  it('a job without a trade is matched as general maintenance; without an address coverage is not scored', async () => {
    const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id });
    const res = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${job.uuid}`);
    expect(res.json().job).toEqual({ uuid: job.uuid, trade: 'general_maintenance', district: null, required_certificates: [] });
    expect(res.json().data.every((r: { eligible: boolean; score: number }) => r.eligible && r.score === 20)).toBe(true);
    expect(res.json().data[0].reasons).toEqual(['Does not offer General maintenance', 'Job has no postcode: coverage not scored', 'No certificate required for General maintenance', 'No other open jobs']);
    expect(res.json().data[0]).toMatchObject({ offers_trade: false, covers_postcode: null });
  });

  it('counts each contractor\'s other open jobs as workload; equal scores rank the less busy first', async () => {
    const second = (await w.adminA.client.post('/api/contractors', { company_name: 'Busy Gas', trade_ids: [await tradeId(t.db, 'gas')], coverage: ['LS6'] })).json().data;
    await w.adminA.client.post(`/api/contractors/${second.uuid}/certifications`, { cert_type: 'gas_safe', reference: 'GS-9', expires_on: '2027-03-31' });
    const busyId = (await t.db.selectFrom('contractors').select('id').where('uuid', '=', second.uuid).executeTakeFirstOrThrow()).id;
    for (let i = 0; i < 2; i++) {
      const j = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id });
      await t.db.updateTable('jobs').set({ contractor_id: busyId, status_id: 4 }).where('id', '=', j.id).execute();
    }
    const res = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${gasJob.uuid}`);
    const top = res.json().data.slice(0, 2);
    expect(top.map((r: { company_name: string; score: number; open_jobs: number }) => [r.company_name, r.score, r.open_jobs])).toEqual([
      ['Gas Pro', 100, 0],
      ['Busy Gas', 100, 2],
    ]);
    expect(top[1].reasons.at(-1)).toBe('2 other open jobs');
    await t.db.updateTable('contractors').set({ active: false }).where('id', '=', busyId).execute();
  });

  it('404 for a job of another agency or none; 400 without job_uuid; 403 without the permission', async () => {
    const jobB = await insertJob(t.db, { agencyId: w.agencyB.id, branchId: w.b1.id, tradeCode: 'gas' });
    const other = await w.agentA1.client.get(`/api/contractors/match?job_uuid=${jobB.uuid}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Job not found');
    expect((await w.adminB.client.get(`/api/contractors/match?job_uuid=${gasJob.uuid}`)).statusCode).toBe(404);
    expect((await w.agentA1.client.get('/api/contractors/match')).json().error).toBe('Invalid or missing required parameter: job_uuid');
    const tenant = await userClient(t, { role: 'tenant', agencyId: w.agencyA.id });
    expect((await tenant.client.get(`/api/contractors/match?job_uuid=${gasJob.uuid}`)).statusCode).toBe(403);
    const southbank = (await w.adminB.client.get(`/api/contractors/match?job_uuid=${jobB.uuid}`)).json().data;
    expect(southbank.map((r: { company_name: string }) => r.company_name)).toEqual(['Southbank Gas']);
  });

  describe('assertContractorAssignable', () => {
    const at = new Date('2026-11-21T09:00:00Z');
    const call = async (name: string, code: string | null, agencyId = w.agencyA.id, when = at) =>
      assertContractorAssignable(t.db, { contractorId: ids[name]!, agencyId, tradeId: code ? await tradeId(t.db, code) : null, at: when });
    const refusal = async (p: Promise<void>) => {
      const err = await p.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      return { status: (err as AppError).statusCode, message: (err as AppError).publicMessage };
    };

    it('passes for a contractor with a valid required certificate, or when none is required', async () => {
      await expect(call('Gas Pro', 'gas')).resolves.toBeUndefined();
      await expect(call('Napit Sparks', 'electrical')).resolves.toBeUndefined();
      await expect(call('Aqua Plumbing', 'plumbing')).resolves.toBeUndefined();
      await expect(call('Expired Gas', null)).resolves.toBeUndefined();
    });

    it('409 naming the expired certificate (the latest one) or the missing one', async () => {
      expect(await refusal(call('Expired Gas', 'gas'))).toEqual({ status: 409, message: "Contractor's Gas Safe certificate expired on 2026-10-31" });
      expect(await refusal(call('Lapsed Sparks', 'electrical'))).toEqual({ status: 409, message: "Contractor's NICEIC certificate expired on 2026-11-20" });
      expect(await refusal(call('Aqua Plumbing', 'gas'))).toEqual({ status: 409, message: 'Contractor has no Gas Safe certificate' });
      expect(await refusal(call('Gas Pro', 'electrical'))).toEqual({ status: 409, message: 'Contractor has no NICEIC or NAPIT certificate' });
      // Valid through the expiry day, not after it.
      await expect(call('Far Gas', 'gas', w.agencyA.id, new Date('2027-01-31T23:00:00Z'))).resolves.toBeUndefined();
      expect(await refusal(call('Far Gas', 'gas', w.agencyA.id, new Date('2027-02-01T08:00:00Z')))).toEqual({ status: 409, message: "Contractor's Gas Safe certificate expired on 2027-01-31" });
    });

    it('404 for another agency\'s contractor; 409 for an inactive one', async () => {
      expect(await refusal(call('Southbank Gas', 'gas'))).toEqual({ status: 404, message: 'Contractor not found' });
      expect(await refusal(call('Gas Pro', 'gas', w.agencyB.id))).toEqual({ status: 404, message: 'Contractor not found' });
      expect(await refusal(call('Sleeping Gas', 'gas'))).toEqual({ status: 409, message: 'Contractor is inactive' });
    });
  });
});
