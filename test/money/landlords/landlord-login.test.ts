import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, Client, login, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob } from '../../helpers/factories.ts';

describe('landlord logins: a landlord user sees only its own properties\' jobs, quotes and invoices, and its own statements', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let landlord: Client;
  const jobs: Record<string, { id: number; uuid: string; reference: string }> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    const own = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '27 Ash Road', postcode: 'LS6 3HN' });
    const other = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '4 Birch Lane', postcode: 'LS6 1AA' });
    const l = (await w.adminA.client.post('/api/landlords', { name: 'Margaret Ellison', email: 'margaret@example.test' })).json().data;
    await w.adminA.client.post(`/api/landlords/${l.uuid}/properties`, { address_uuid: own.uuid, share_bp: 10000 });
    const contractor = await insertContractor(t.db, w.agencyA.id, 'Fletcher Plumbing');
    jobs.own = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: own.id, title: 'Own boiler', status_id: 6, contractor_id: contractor.id }, t.clock.now());
    jobs.other = await insertJob(t.db, { agency_id: w.agencyA.id, branch_id: w.a1.id, address_id: other.id, title: 'Other boiler', status_id: 6, contractor_id: contractor.id }, t.clock.now());
    for (const j of [jobs.own, jobs.other]) {
      expect((await w.adminA.client.post(`/api/jobs/${j!.uuid}/quotes`, { contractor_uuid: contractor.uuid, lines: [{ description: 'Parts', quantity: 1, unit_price_pence: 10000, vat_rate: 'standard' }] })).statusCode).toBe(201);
      await t.db.updateTable('jobs').set({ status_id: 7, completed_at: t.clock.now() }).where('id', '=', j!.id).execute();
      await w.adminA.client.post('/api/invoices', { job_uuid: j!.uuid, lines: [{ description: 'Work', quantity: 1, unit_price_pence: 10000, vat_rate: 'standard' }] });
    }
    // The agency's admin gives the landlord a login (role defaults to landlord).
    const created = await w.adminA.client.post('/api/users', { name: 'Margaret Ellison', email: 'margaret.login@example.test', landlord_uuid: l.uuid, password: 'correct horse battery' });
    expect(created.statusCode).toBe(201);
    expect((await w.adminA.client.post('/api/users', { name: 'Again', email: 'again@example.test', landlord_uuid: l.uuid, password: 'correct horse battery' })).statusCode).toBe(409);
    expect((await w.adminA.client.post('/api/users', { name: 'Wrong', email: 'wrong@example.test', landlord_uuid: l.uuid, role: 'agent', password: 'correct horse battery' })).statusCode).toBe(400);
    landlord = new Client(t.app, await login(t.app, 'margaret.login@example.test', 'correct horse battery'));
  });
  afterAll(async () => t?.close());

  it('lists and reads only its properties\' jobs; another property is 404', async () => {
    const list = (await landlord.get('/api/jobs/manage')).json();
    expect(list.data.map((j: { reference: string }) => j.reference)).toEqual([jobs.own!.reference]);
    expect((await landlord.get(`/api/jobs/${jobs.own!.uuid}`)).statusCode).toBe(200);
    expect((await landlord.get(`/api/jobs/${jobs.other!.uuid}`)).statusCode).toBe(404);
  });

  it('reads quotes and invoices of its properties only', async () => {
    const q = await landlord.get(`/api/jobs/${jobs.own!.uuid}/quotes`);
    expect(q.statusCode).toBe(200);
    expect(q.json().data).toHaveLength(1);
    expect((await landlord.get(`/api/jobs/${jobs.other!.uuid}/quotes`)).statusCode).toBe(404);
    const inv = (await landlord.get('/api/invoices')).json().data;
    expect(inv.map((i: { job_reference: string }) => i.job_reference)).toEqual([jobs.own!.reference]);
    const otherInvoice = await t.db.selectFrom('invoices').select('uuid').where('job_id', '=', jobs.other!.id).executeTakeFirstOrThrow();
    expect((await landlord.get(`/api/invoices/${otherInvoice.uuid}`)).statusCode).toBe(404);
  });

  it("reads its own landlord's statement only; another landlord's is 404", async () => {
    const [own, stranger] = await Promise.all([
      t.db.selectFrom('landlords').select('uuid').where('name', '=', 'Margaret Ellison').executeTakeFirstOrThrow(),
      w.adminA.client.post('/api/landlords', { name: 'Someone Else', email: 'someone@example.test' }).then((r) => r.json().data as { uuid: string }),
    ]);
    const period = '?from_date=2026-11-01&to_date=2026-11-30';
    const mine = await landlord.get(`/api/landlords/${own.uuid}/statement${period}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data).toMatchObject({ landlord_uuid: own.uuid, landlord_name: 'Margaret Ellison' });
    expect((await landlord.get(`/api/landlords/${own.uuid}/statement.csv${period}`)).statusCode).toBe(200);
    expect((await landlord.get(`/api/landlords/${stranger.uuid}/statement${period}`)).statusCode).toBe(404);
    expect((await landlord.get(`/api/landlords/${stranger.uuid}/statement.pdf${period}`)).statusCode).toBe(404);
    expect((await w.adminA.client.get(`/api/landlords/${stranger.uuid}/statement${period}`)).statusCode).toBe(200);
  });

  it('writes nothing and reaches no staff area: 403', async () => {
    expect((await landlord.post(`/api/jobs/${jobs.own!.uuid}/quotes`, { lines: [{ description: 'x', quantity: 1, unit_price_pence: 1, vat_rate: 'standard' }] })).statusCode).toBe(403);
    expect((await landlord.post('/api/jobs/manage', { title: 'Leak', priority: 2, branch_uuid: w.a1.uuid })).statusCode).toBe(403);
    expect((await landlord.post(`/api/jobs/${jobs.own!.uuid}/transitions`, { to_status_id: 9 })).statusCode).toBe(403);
    expect((await landlord.get(`/api/jobs/${jobs.own!.uuid}/notes`)).statusCode).toBe(403);
    expect((await landlord.get('/api/landlords')).statusCode).toBe(403);
    expect((await landlord.get('/api/contractors')).statusCode).toBe(403);
    expect((await landlord.get('/api/pricing/settings')).statusCode).toBe(403);
  });
});
