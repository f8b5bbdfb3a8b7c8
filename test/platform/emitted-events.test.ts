/**
 * Services write their domain events in the transaction of the change (docs/events.md): a note,
 * a user, and the daily certificate-expiry scan, which warns once per certificate and expiry date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { scanExpiringCertificates } from '../../src/modules/people/contractors/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { attachedRecordsWorld } from '../helpers/attached-records-world.ts';

describe('events emitted by the services', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof attachedRecordsWorld>>;
  const events = async (name: string) =>
    (await t.db.selectFrom('outbox').select(['name', 'agency_id', 'payload']).where('name', '=', name).orderBy('id').execute()).map((r) => ({
      ...r,
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    }));
  beforeAll(async () => {
    t = await buildTestApp();
    w = await attachedRecordsWorld(t);
  }, 600_000);
  afterAll(async () => t?.close());

  it('job.note_added with the note and the job reference', async () => {
    const res = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/notes`, { body: 'Boiler part ordered', visibility: 'internal' });
    expect(res.statusCode).toBe(201);
    const [e] = await events('job.note_added');
    expect(e).toMatchObject({ agency_id: w.agencyA.id, payload: { job_uuid: w.job.uuid, branch_id: w.a1.id, visibility: 'internal' } });
    expect(await events('job.note_added')).toHaveLength(1);
    const bad = await w.agentA1.client.post(`/api/jobs/${w.job.uuid}/notes`, { body: '', visibility: 'internal' });
    expect(bad.statusCode).toBe(400);
    expect(await events('job.note_added')).toHaveLength(1);
  });

  it('user.created when an administrator creates an account', async () => {
    const res = await w.adminA.client.post('/api/users', { name: 'Rita Agent', email: 'rita@example.test', role: 'agent', branch_uuid: w.a1.uuid, password: 'a-long-enough-password' });
    expect(res.statusCode).toBe(201);
    const created = await events('user.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ agency_id: w.agencyA.id, payload: { role_code: 'agent' } });
  });

  it('contractor.certificate_expiring once per certificate and expiry date', async () => {
    const contractor = await t.db.selectFrom('contractors').select(['id']).where('company_name', '=', 'Fletcher Plumbing').executeTakeFirstOrThrow();
    const now = t.clock.now();
    const cert = (expires: string) =>
      t.db
        .insertInto('contractor_certifications')
        .values({ uuid: newUuid(), agency_id: w.agencyA.id, contractor_id: contractor.id, cert_type: 'gas_safe', reference: `GS-${expires}`, expires_on: expires, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    const soon = await cert('2026-12-10');
    await cert('2027-06-01');
    expect(await scanExpiringCertificates(t.deps)).toBe(1);
    expect(await scanExpiringCertificates(t.deps)).toBe(0);
    const [e] = await events('contractor.certificate_expiring');
    expect(e).toMatchObject({ agency_id: w.agencyA.id, payload: { contractor_id: contractor.id, certification_id: soon.id, expires_on: '2026-12-10' } });
    // Renewed: a new expiry date is warned about again when it comes into the window.
    await t.db.updateTable('contractor_certifications').set({ expires_on: '2027-01-05' }).where('id', '=', soon.id).execute();
    t.clock.set(new Date('2026-12-20T06:00:00Z'));
    expect(await scanExpiringCertificates(t.deps)).toBe(1);
    expect(await events('contractor.certificate_expiring')).toHaveLength(2);
  });
});
