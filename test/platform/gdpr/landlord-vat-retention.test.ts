/**
 * A landlord's erasure restricts, not clears, what VAT records must keep (docs/gdpr.md "Landlords";
 * VATA 1994 Sch. 11 para. 6(3), VAT Notice 700/21): after the erasure the recharge invoice, the
 * statement and its exports still carry the landlord's name and postal address, while the
 * landlord's own record (contact, bank details, notes) is scrubbed and lists and searches no
 * longer find the name; the answer lists what was kept and until when; the retention task
 * releases (deletes) the copy when the period ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { applyRetention } from '../../../src/modules/platform/gdpr/index.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { LINES, moneyWorld } from '../../money/money/world.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof moneyWorld>>;
let ada: { uuid: string };

beforeAll(async () => {
  t = await buildTestApp();
  w = await moneyWorld(t);
  const job = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, addressId: w.address.id, title: 'Leaking stopcock' });
  const jobUuid = (await t.db.selectFrom('jobs').select('uuid').where('id', '=', job.id).executeTakeFirstOrThrow()).uuid;
  ada = (await w.adminA.client.post('/api/landlords', {
    name: 'Ada Lovelace', email: 'ada@example.test', phone: '07700 900123', address_line1: '1 Park Square', address_town: 'Leeds', address_postcode: 'LS1 2ND',
    bank_account_name: 'A Lovelace', bank_sort_code: '40-12-76', bank_account_number: '31926819', notes: 'Prefers e-mail',
  })).json().data;
  const addressUuid = (await t.db.selectFrom('addresses').select('uuid').where('id', '=', w.address.id).executeTakeFirstOrThrow()).uuid;
  expect((await w.adminA.client.post(`/api/landlords/${ada.uuid}/properties`, { address_uuid: addressUuid, share_bp: 10000 })).statusCode).toBe(201);
  const inv = (await w.adminA.client.post('/api/invoices', { job_uuid: jobUuid, lines: LINES })).json().data;
  expect((await w.adminA.client.post(`/api/invoices/${inv.uuid}/issue`)).statusCode).toBe(200);
  await dispatchPendingEvents(t.deps, backgroundHandlers());
});
afterAll(async () => t.close());

describe('erasing a landlord with VAT records', () => {
  it('keeps the name and address on the VAT records, restricted, and scrubs the rest', async () => {
    const before = (await w.adminA.client.get(`/api/recharges?landlord_uuid=${ada.uuid}`)).json().data;
    expect(before).toHaveLength(1);
    const rechargeDate = before[0].recharge_date as string;

    const res = await w.adminA.client.post(`/api/landlords/${ada.uuid}/erase`, {});
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().data;
    const keepUntil = `${Number(rechargeDate.slice(0, 4)) + 6}${rechargeDate.slice(4)}`;
    expect(answer.retained).toEqual([{
      record_kind: 'vat_records', table: expect.stringContaining('landlord_restricted_particulars: name and postal address'), records: 1,
      retained_until: keepUntil, ground: expect.stringContaining('VAT Regulations 1995 reg. 14(1)'),
    }]);
    expect(answer.name).toMatch(/^Erased landlord [0-9a-f]{4}$/);

    // The VAT records: the recharge invoice, the statement and the accounting export.
    const after = (await w.adminA.client.get(`/api/recharges?landlord_uuid=${ada.uuid}`)).json().data;
    expect(after[0]).toMatchObject({ landlord_name: 'Ada Lovelace' });
    const s = await w.adminA.client.get(`/api/landlords/${ada.uuid}/statement?from_date=2026-11-01&to_date=2026-11-30`);
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json().data).toMatchObject({ landlord_name: 'Ada Lovelace', landlord_address: '1 Park Square, Leeds, LS1 2ND' });

    // The landlord's own record: profile and contact data scrubbed; lists and searches no longer find the name.
    const profile = (await w.adminA.client.get(`/api/landlords/${ada.uuid}`)).json().data;
    expect(profile).toMatchObject({ name: answer.name, email: null, phone: null });
    expect(JSON.stringify(profile)).not.toMatch(/Lovelace|Park Square|LS1 2ND/);
    const row = await t.db.selectFrom('landlords').selectAll().where('uuid', '=', ada.uuid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: answer.name, email: null, phone: null, bank_account_name: null, bank_sort_code: null, bank_account_number: null, notes: null, address_line1: null });
    expect(JSON.stringify((await w.adminA.client.get('/api/landlords?q=Lovelace')).json().data)).not.toContain('Lovelace');
    const log = await t.db.selectFrom('activity_log').select('details').where('action', '=', 'landlord.erase').executeTakeFirstOrThrow();
    expect(JSON.stringify(log)).not.toContain('Lovelace');
  });

  it('the retention task releases the copy when the period ends, deleting the kept name and address', async () => {
    expect(await applyRetention(t.deps)).toMatchObject({ released: 0 });
    const kept = await t.db.selectFrom('gdpr_retained').select([sql<string>`retained_until::text`.as('retained_until'), 'table_name']).where('subject_type', '=', 'landlord').executeTakeFirstOrThrow();
    expect(kept.table_name).toBe('landlord_restricted_particulars');
    t.clock.set(new Date(`${kept.retained_until}T12:00:00Z`));
    expect(await applyRetention(t.deps)).toMatchObject({ released: 1 });
    expect(await t.db.selectFrom('landlord_restricted_particulars').selectAll().execute()).toEqual([]);
    expect((await t.db.selectFrom('gdpr_retained').select('released_at').where('subject_type', '=', 'landlord').executeTakeFirstOrThrow()).released_at).not.toBeNull();
  });
});
