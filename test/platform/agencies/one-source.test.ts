/**
 * One source of truth for the agency settings that existed twice (docs/onboarding.md, "One source
 * of truth"): the default approval limit is agencies.default_approval_limit_pence, whether set
 * through the agency profile or the landlord settings, and approvals fall back to it; office
 * hours are the rows of agency_office_hours, whether set through the profile or the SLA settings.
 * The migration copies what the old places held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../../src/db/migrations/2026_11_26_1300_one_source_of_truth.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';

describe('one source of truth: approval limit and office hours', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('the default approval limit set on the agency profile is the landlord settings\' and the one approvals use', async () => {
    const address = (await w.adminA.client.post('/api/addresses', { line1: '3 Limit Lane', town: 'Leeds', postcode: 'LS6 2AA' })).json().data;
    expect((await w.adminA.client.get(`/api/landlords/properties/${address.uuid}`)).json().data).toMatchObject({ effective_limit_pence: null, limit_source: 'none' });
    expect((await w.adminA.client.put('/api/agencies/current', { default_approval_limit_pence: 15000 })).statusCode).toBe(200);
    expect((await w.adminA.client.get('/api/landlords/settings')).json().data).toEqual({ default_approval_limit_pence: 15000, reminder_after_hours: 48, expires_after_hours: 120 });
    expect((await w.adminA.client.get(`/api/landlords/properties/${address.uuid}`)).json().data).toMatchObject({ effective_limit_pence: 15000, limit_source: 'agency' });

    const put = await w.adminA.client.put('/api/landlords/settings', { default_approval_limit_pence: 9000, reminder_after_hours: 24 });
    expect(put.json().data).toEqual({ default_approval_limit_pence: 9000, reminder_after_hours: 24, expires_after_hours: 120 });
    expect((await w.adminA.client.get('/api/agencies/current')).json().data.default_approval_limit_pence).toBe(9000);
    const stored = await t.db.selectFrom('landlord_settings').select('default_approval_limit_pence').where('agency_id', '=', w.agencyA.id).executeTakeFirstOrThrow();
    expect(stored.default_approval_limit_pence).toBeNull();
    // Another agency's default is its own.
    expect((await w.adminB.client.get('/api/landlords/settings')).json().data.default_approval_limit_pence).toBeNull();
  });

  it('office hours set on the profile are what the SLA settings show and count, and the other way round', async () => {
    const before = (await w.adminA.client.get('/api/agencies/current')).json().data.office_hours;
    expect(before).toMatchObject({ mon: { open: '09:00', close: '17:30' }, sat: null, sun: null });
    const res = await w.adminA.client.put('/api/agencies/current', { office_hours: { mon: { open: '08:00', close: '18:00' }, sat: { open: '10:00', close: '12:00' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.office_hours).toMatchObject({ mon: { open: '08:00', close: '18:00' }, tue: { open: '09:00', close: '17:30' }, sat: { open: '10:00', close: '12:00' }, sun: null });
    const sla = (await w.adminA.client.get('/api/sla/settings')).json().data;
    expect(sla).toMatchObject({ office_hours_default: false, office_hours: { mon: { opens: '08:00', closes: '18:00' }, sat: { opens: '10:00', closes: '12:00' }, sun: null } });

    const closed = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
    await w.adminA.client.post('/api/sla/settings', { office_hours: { ...closed, wed: { opens: '07:00', closes: '15:00' } } });
    expect((await w.adminA.client.get('/api/agencies/current')).json().data.office_hours).toEqual({ ...closed, wed: { open: '07:00', close: '15:00' } });
    const all = Object.fromEntries(Object.keys(closed).map((d) => [d, null]));
    const refused = await w.adminA.client.put('/api/agencies/current', { office_hours: all });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Invalid or missing required parameter: office_hours');
    const row = await t.db.selectFrom('agencies').select('office_hours').where('id', '=', w.agencyA.id).executeTakeFirstOrThrow();
    expect(row.office_hours).toBeNull();
  });

  it('the migration copies the old places into the one place', async () => {
    const id = w.agencyB.id;
    await t.db.deleteFrom('agency_office_hours').where('agency_id', '=', id).execute();
    await t.db.updateTable('agencies').set({ office_hours: JSON.stringify({ mon: { open: '09:00', close: '17:00' }, tue: null, fri: { open: '08:30', close: '12:15' }, sun: { open: '12:00', close: '11:00' } }), default_approval_limit_pence: null }).where('id', '=', id).execute();
    await t.db.insertInto('landlord_settings').values({ agency_id: id, default_approval_limit_pence: 33300, updated_at: new Date() })
      .onConflict((oc) => oc.column('agency_id').doUpdateSet({ default_approval_limit_pence: 33300 })).execute();
    await up(t.db);
    const hours = await t.db.selectFrom('agency_office_hours').select(['weekday', 'opens_minute', 'closes_minute']).where('agency_id', '=', id).orderBy('weekday').execute();
    expect(hours).toEqual([
      { weekday: 0, opens_minute: 540, closes_minute: 1020 },
      { weekday: 4, opens_minute: 510, closes_minute: 735 },
    ]);
    expect((await t.db.selectFrom('agencies').select('default_approval_limit_pence').where('id', '=', id).executeTakeFirstOrThrow()).default_approval_limit_pence).toBe(33300);
    // Run again: nothing changes (agencies with rows keep them).
    await up(t.db);
    expect(await t.db.selectFrom('agency_office_hours').select(['weekday']).where('agency_id', '=', id).execute()).toHaveLength(2);
    expect((await w.adminB.client.get('/api/agencies/current')).json().data).toMatchObject({ default_approval_limit_pence: 33300, office_hours: { mon: { open: '09:00', close: '17:00' }, fri: { open: '08:30', close: '12:15' }, sun: null } });
  });
});
