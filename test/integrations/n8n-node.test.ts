/**
 * The n8n node package (integrations/n8n, docs/integrations.md "n8n"): the Caretaker action node's
 * operations run by its own execute() against the app listening on a port, through the harness's
 * n8n contexts (test/integrations/n8n-harness.ts): the credential and its test request, jobs (get
 * many with filters, get, create, move, assign, add note), tenants, contractors and properties
 * (find, create), compliance items due, invoices; n8n's Return All / Limit paging over the API's
 * pages; the API's refusals as NodeApiError, and Continue On Fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeApiError } from 'n8n-workflow';
import { Caretaker } from '../../integrations/n8n/nodes/Caretaker/Caretaker.node.ts';
import { CaretakerApi } from '../../integrations/n8n/credentials/CaretakerApi.credentials.ts';
import { buildTestApp, Client, createAgency, createBranch, login, userClient, type TestApp } from '../helpers/app.ts';
import { insertTenant } from '../helpers/factories.ts';
import { httpRequest, execute, type Harness } from './n8n-harness.ts';

describe('n8n node: the Caretaker action node against a running Caretaker', () => {
  let t: TestApp;
  let h: Harness;
  let branchUuid: string;
  let agencyId: number;
  const node = new Caretaker();
  const json = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Record<string, any>);

  beforeAll(async () => {
    t = await buildTestApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const agency = await createAgency(t.db, 'Northwind Lettings');
    agencyId = agency.id;
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    branchUuid = branch.uuid;
    const api = await userClient(t, { role: 'api', agencyId: agency.id });
    h = { credentials: { baseUrl: `${address}/`, apiToken: api.token }, sent: [] };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("passes the credential's test request (GET /api/auth/me with the bearer token) and fails it with a wrong token", async () => {
    const test = new CaretakerApi().test.request;
    const base = h.credentials.baseUrl.replace(/\/+$/, '');
    const withToken = (token: string) => ({ method: test.method ?? 'GET', baseURL: base, url: test.url!, json: true, returnFullResponse: true, ignoreHttpStatusErrors: true, headers: { Authorization: `Bearer ${token}` } });
    const ok = (await httpRequest(withToken(h.credentials.apiToken))) as { statusCode: number; body: any };
    expect(ok.statusCode).toBe(200);
    expect(ok.body.data).toMatchObject({ role: 'API', agency_name: 'Northwind Lettings' });
    expect(((await httpRequest(withToken('not-a-token'))) as { statusCode: number }).statusCode).toBe(401);
  });

  it('creates, reads, lists with filters, moves, assigns and notes a job', async () => {
    const [created] = json(
      await execute(h, node, {
        resource: 'job',
        operation: 'create',
        title: 'Boiler not firing',
        priority: 1,
        additionalFields: { branch_uuid: branchUuid, description: 'No heating or hot water', estimated_cost_pence: '' },
      }),
    );
    expect(created).toMatchObject({ title: 'Boiler not firing', priority: 1, status: 'Reported', branch_name: 'Leeds' });
    const [read] = json(await execute(h, node, { resource: 'job', operation: 'get', jobUuid: created!.uuid }));
    expect(read).toMatchObject({ uuid: created!.uuid, reference: created!.reference });

    await execute(h, node, { resource: 'job', operation: 'create', title: 'Dripping tap', priority: 4, additionalFields: { branch_uuid: branchUuid } });
    const found = json(await execute(h, node, { resource: 'job', operation: 'getAll', returnAll: false, limit: 10, filters: { q: 'boiler', priority: 1 } }));
    expect(found.map((j) => j.uuid)).toEqual([created!.uuid]);
    expect(h.sent.at(-1)!.url).toBe('/api/jobs/manage?q=boiler&priority=1&limit=10&offset=0');

    const [moved] = json(await execute(h, node, { resource: 'job', operation: 'move', jobUuid: created!.uuid, toStatusId: 3, note: 'Landlord approved by phone' }));
    expect(moved).toMatchObject({ status_id: 3, status: 'Approved' });

    const [contractor] = json(await execute(h, node, { resource: 'contractor', operation: 'create', company_name: 'Aire Valley Heating', additionalFields: { email: 'jobs@airevalley.test', phone: '' } }));
    expect(contractor).toMatchObject({ company_name: 'Aire Valley Heating', email: 'jobs@airevalley.test' });
    const [assigned] = json(await execute(h, node, { resource: 'job', operation: 'assign', jobUuid: created!.uuid, contractorUuid: contractor!.uuid, assignFields: { scheduled_for: '2026-11-23' } }));
    expect(assigned).toMatchObject({ contractor_uuid: contractor!.uuid, status: 'Scheduled', scheduled_for: '2026-11-23T00:00:00.000Z' });

    const [note] = json(await execute(h, node, { resource: 'job', operation: 'addNote', jobUuid: created!.uuid, body: 'Engineer booked for Monday', visibility: 'tenant' }));
    expect(note).toMatchObject({ job_uuid: created!.uuid, body: 'Engineer booked for Monday', visibility: 'tenant' });
    // Every write fetched its own single-use CSRF token first.
    const writes = h.sent.filter((s) => s.method === 'POST');
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const w of writes) expect(h.sent[h.sent.indexOf(w) - 1]!.url).toBe('/api/security/csrf-token');
  });

  it('finds and creates tenants, contractors and properties; finds the landlords of a property', async () => {
    const [tenant] = json(await execute(h, node, { resource: 'tenant', operation: 'create', name: 'Priya Shah', additionalFields: { email: 'priya@example.test', preferred_contact: 'sms', mobile: '07700900123' } }));
    expect(tenant).toMatchObject({ name: 'Priya Shah', preferred_contact: 'sms', mobile: '07700900123' });
    expect(json(await execute(h, node, { resource: 'tenant', operation: 'find', returnAll: true, filters: { q: 'Priya' } })).map((r) => r.uuid)).toEqual([tenant!.uuid]);

    const [property] = json(await execute(h, node, { resource: 'property', operation: 'create', line1: '14 Cardigan Road', town: 'Leeds', postcode: 'ls6 3hn', additionalFields: { branch_uuid: branchUuid } }));
    expect(property).toMatchObject({ line1: '14 Cardigan Road', postcode: 'LS6 3HN', branch_name: 'Leeds' });
    expect(json(await execute(h, node, { resource: 'property', operation: 'find', returnAll: false, limit: 5, filters: { postcode: 'LS6 3HN' } })).map((r) => r.uuid)).toEqual([property!.uuid]);

    expect(json(await execute(h, node, { resource: 'contractor', operation: 'find', returnAll: true, filters: { q: 'Aire' } })).map((r) => r.company_name)).toEqual(['Aire Valley Heating']);

    // The owners of a property (to text the landlord of a job's address).
    const staff = new Client(t.app, h.credentials.apiToken);
    const landlord = (await staff.post('/api/landlords', { kind: 'person', name: 'Helen Ellison', phone: '07700900456' })).json().data;
    expect((await staff.post(`/api/landlords/${landlord.uuid}/properties`, { address_uuid: property!.uuid, share_bp: 10000 })).statusCode).toBe(201);
    await staff.post('/api/landlords', { kind: 'person', name: 'Other Owner' });
    const owners = json(await execute(h, node, { resource: 'landlord', operation: 'find', returnAll: true, filters: { address_uuid: property!.uuid } }));
    expect(owners.map((r) => [r.name, r.phone])).toEqual([['Helen Ellison', '07700900456']]);
  });

  it("gets compliance items due (the derived register) and invoices, filters passed as the API's", async () => {
    const missing = json(await execute(h, node, { resource: 'complianceItem', operation: 'getDue', status: 'missing', returnAll: true, filters: { type: 'gas_safety' } }));
    expect(missing.length).toBeGreaterThanOrEqual(1);
    expect(missing[0]).toMatchObject({ status: 'missing', type_code: 'gas_safety', address: expect.stringContaining('14 Cardigan Road') });
    expect(json(await execute(h, node, { resource: 'complianceItem', operation: 'getDue', returnAll: true }))).toEqual([]);
    expect(h.sent.at(-1)!.url).toBe('/api/compliance?status=due_soon&limit=200&offset=0');
    expect(json(await execute(h, node, { resource: 'invoice', operation: 'getAll', returnAll: false, limit: 20, filters: { status: 'overdue' } }))).toEqual([]);
    expect(h.sent.at(-1)).toEqual({ method: 'GET', url: '/api/invoices?status=overdue&limit=20&offset=0', status: 200 });
  });

  it('Return All reads every page (200 a page) up to the count; Limit reads one page', async () => {
    for (let i = 0; i < 205; i++) await insertTenant(t.db, agencyId, [], `Paged tenant ${String(i).padStart(3, '0')}`);
    h.sent.length = 0;
    const all = json(await execute(h, node, { resource: 'tenant', operation: 'find', returnAll: true, filters: { q: 'Paged' } }));
    expect(all).toHaveLength(205);
    expect(new Set(all.map((r) => r.uuid)).size).toBe(205);
    expect(h.sent.map((s) => s.url)).toEqual(['/api/tenants?q=Paged&limit=200&offset=0', '/api/tenants?q=Paged&limit=200&offset=200']);
    const some = json(await execute(h, node, { resource: 'tenant', operation: 'find', returnAll: false, limit: 3, filters: { q: 'Paged' } }));
    expect(some.map((r) => r.name)).toEqual(['Paged tenant 000', 'Paged tenant 001', 'Paged tenant 002']);
  });

  it("throws the API's refusal as NodeApiError (message and status); Continue On Fail makes it an item", async () => {
    const unknown = { resource: 'job', operation: 'get', jobUuid: '00000000-0000-4000-8000-000000000000' };
    const error = await execute(h, node, unknown).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error).toMatchObject({ message: 'Job not found', httpCode: '404' });

    const [job] = json(await execute(h, node, { resource: 'job', operation: 'create', title: 'Broken window', priority: 2, additionalFields: { branch_uuid: branchUuid } }));
    const illegal = await execute(h, node, { resource: 'job', operation: 'move', jobUuid: job!.uuid, toStatusId: 6 }).catch((e: unknown) => e);
    expect(illegal).toBeInstanceOf(NodeApiError);
    expect((illegal as NodeApiError).httpCode).toBe('409');

    const items = await execute(h, node, [unknown, { resource: 'job', operation: 'get', jobUuid: job!.uuid }], { continueOnFail: true });
    expect(items).toEqual([
      { json: { error: 'Job not found' }, pairedItem: { item: 0 } },
      { json: expect.objectContaining({ uuid: job!.uuid }), pairedItem: { item: 1 } },
    ]);
  });

  it('an administrator of another agency sees none of these jobs through the node', async () => {
    const other = await createAgency(t.db, 'Other Lettings');
    const otherAdmin = await userClient(t, { role: 'admin', agencyId: other.id });
    const theirs: Harness = { credentials: { ...h.credentials, apiToken: await login(t.app, otherAdmin.user.email) }, sent: [] };
    expect(await execute(theirs, node, { resource: 'job', operation: 'getAll', returnAll: true })).toEqual([]);
  });
});
