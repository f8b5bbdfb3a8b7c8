/**
 * Reminders before a certificate expires (docs/compliance.md "Reminders before expiry"): once per
 * item, expiry date and threshold (60, 30 and 7 days before), whatever the number of scans; an
 * item first seen inside a smaller threshold gets one reminder; messaging writes to the agents of
 * the property's branch and to its landlords.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { complianceRemindersTask, sendExpiryReminders } from '../../../src/modules/jobs/compliance/index.ts';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress } from '../../helpers/factories.ts';

describe('compliance reminders before expiry', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  const reminders = () => t.db.selectFrom('outbox').select('payload').where('name', '=', 'compliance.certificate_expiring').orderBy('id').execute();

  it('reminds at 60, 30 and 7 days, once each, to the agents and the landlord', async () => {
    t.clock.set(new Date('2026-11-26T10:00:00Z'));
    const house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '12 Harehills Lane', postcode: 'LS8 4AA' });
    const landlord = (await w.adminA.client.post('/api/landlords', { name: 'Ada Lovelace', email: 'ada@example.test' })).json().data;
    expect((await w.adminA.client.post(`/api/landlords/${landlord.uuid}/properties`, { address_uuid: house.uuid, share_bp: 10000 })).statusCode).toBe(201);
    const item = (await w.agentA1.client.post('/api/compliance/items', { address_uuid: house.uuid, type: 'gas_safety' })).json().data;
    // Issued 2026-02-24: expires 2027-02-24, 90 days after 26 Nov.
    const cert = await w.agentA1.client.post(`/api/compliance/items/${item.uuid}/certificates`, { issued_on: '2026-02-24' });
    expect(cert.json().data.expires_on).toBe('2027-02-24');

    expect(await sendExpiryReminders(t.deps)).toBe(0);
    t.clock.set(new Date('2026-12-26T09:00:00Z')); // 60 days before
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    await complianceRemindersTask.run(t.deps);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    t.clock.set(new Date('2027-01-25T09:00:00Z')); // 30 days before
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    t.clock.set(new Date('2027-02-20T09:00:00Z')); // 4 days before: the 7-day reminder
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    expect((await reminders()).map((r) => (r.payload as { threshold_days: number }).threshold_days)).toEqual([60, 30, 7]);

    await dispatchPendingEvents(t.deps, backgroundHandlers());
    const rows = await t.db.selectFrom('message_deliveries').select(['template_key', 'recipient_kind', 'recipient_address', 'subject'])
      .where('event_name', '=', 'compliance.certificate_expiring').orderBy('id').execute();
    expect(rows.filter((r) => r.template_key === 'compliance.expiring_landlord')).toHaveLength(3);
    expect(rows.find((r) => r.template_key === 'compliance.expiring_landlord')).toMatchObject({
      recipient_kind: 'landlord', recipient_address: 'ada@example.test', subject: 'Your property 12 Harehills Lane, Leeds LS8 4AA: Gas safety record expires Wed 24 Feb 2027',
    });
    expect(rows.filter((r) => r.template_key === 'compliance.expiring' && r.recipient_kind === 'agent').length).toBeGreaterThanOrEqual(3);
  });

  it('an item first seen 5 days before expiry gets the 7-day reminder only; a renewed certificate starts again', async () => {
    t.clock.set(new Date('2027-01-10T09:00:00Z'));
    const flat = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: 'Flat 3, 8 Kirkgate', postcode: 'LS1 6BY' });
    const item = (await w.agentA1.client.post('/api/compliance/items', { address_uuid: flat.uuid, type: 'eicr' })).json().data;
    await w.agentA1.client.post(`/api/compliance/items/${item.uuid}/certificates`, { issued_on: '2022-01-15' }); // expires 2027-01-15
    const before = (await reminders()).length;
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    expect((await reminders()).at(-1)!.payload).toMatchObject({ item_uuid: item.uuid, expires_on: '2027-01-15', days_left: 5, threshold_days: 7 });
    // Renewed: the new expiry (2032-01-10) is far off; nothing more.
    await w.agentA1.client.post(`/api/compliance/items/${item.uuid}/certificates`, { issued_on: '2027-01-10' });
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    expect((await reminders()).length).toBe(before + 1);
  });
});
