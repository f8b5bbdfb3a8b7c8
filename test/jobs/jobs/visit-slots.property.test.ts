/**
 * Every slot offered to a tenant can be booked by that tenant (docs/tenant-reporting.md "Booking
 * the visit"), as a property over generated cases: the clock anywhere from late November 2026 to
 * past the clocks going forward on Sun 28 Mar 2027, the tenant's windows (none, or up to three on
 * different days, 1 to 12 hours, London time), the agency's own slot with hours beside the
 * standard ones, and the contractor's other bookings. For each case the plan's free slots all lie
 * inside the tenant's windows (when given), and the tenant books each in turn (a booking replaces
 * the last), every one answered 200; with windows given and none offered, a pick outside them is
 * refused naming the windows.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, londonDate, londonToUtc } from '../../../src/lib/london-time.ts';
import { buildTestApp, standardWorld, userClient, type TestApp } from '../../helpers/app.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../../helpers/factories.ts';

type Client = Awaited<ReturnType<typeof userClient>>['client'];
interface Slot { starts_at: string; ends_at: string; label: string }

/** A London wall-clock span on a day: hour of start (7-19) and length in hours (1-12). */
const windowArb = fc.record({ dayOffset: fc.integer({ min: 1, max: 16 }), startHour: fc.integer({ min: 7, max: 19 }), hours: fc.integer({ min: 1, max: 12 }) });

const caseArb = fc.record({
  // Days after Thu 26 Nov 2026 09:00 UTC: up to 130 days, past the clock change of 28 Mar 2027.
  nowDays: fc.integer({ min: 0, max: 130 }),
  nowMinutes: fc.integer({ min: 0, max: 600 }),
  windows: fc.uniqueArray(windowArb, { maxLength: 3, selector: (w) => w.dayOffset }),
  // The contractor's other booking: a day ahead and an hour, or none.
  busy: fc.option(fc.record({ dayOffset: fc.integer({ min: 1, max: 14 }), startHour: fc.integer({ min: 7, max: 16 }) }), { nil: undefined }),
});

const hh = (h: number) => `${String(Math.min(h, 23)).padStart(2, '0')}:00`;

describe('visit slots offered to a tenant', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  let tenant: Client;
  let fixer: Client;
  let tenantId: number;
  let contractorId: number;
  let houseId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
    const house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '7 Kirkstall Road', postcode: 'LS3 1HS' });
    houseId = house.id;
    const tenantRow = await insertTenant(t.db, w.agencyA.id, [house.id], 'Amira Hussain');
    tenantId = tenantRow.id;
    const contractor = await insertContractor(t.db, w.agencyA.id, 'Kirkstall Electrical');
    contractorId = contractor.id;
    // The agency's own slot with hours, overlapping the standard ones (an evening visit).
    await t.db.insertInto('job_time_ranges').values({ agency_id: w.agencyA.id, range_label: 'Evening', starts_at: '17:00', ends_at: '20:00', sort_order: 9, created_at: new Date(), updated_at: new Date() }).execute();
  });
  afterAll(async () => t?.close());

  it('every free slot is inside the tenant\'s windows and bookable by the tenant', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const now = new Date(Date.parse('2026-11-26T09:00:00Z') + c.nowDays * 86_400_000 + c.nowMinutes * 60_000);
        t.clock.set(now);
        const today = londonDate(now);
        // Tokens are issued at the case's clock (a token from months before would have expired).
        tenant = (await userClient(t, { role: 'tenant', agencyId: w.agencyA.id, tenantId, name: 'Amira Hussain' })).client;
        fixer = (await userClient(t, { role: 'contractor', agencyId: w.agencyA.id, contractorId, name: 'Sam Kirk' })).client;
        const job = await insertJob(t.db, {
          agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 4, contractor_id: contractorId, tenant_id: tenantId, address_id: houseId,
          assigned_at: now, title: 'Sockets dead in the kitchen',
        }, now);
        if (c.busy) {
          const other = await insertJob(t.db, {
            agency_id: w.agencyA.id, branch_id: w.a1.id, status_id: 4, contractor_id: contractorId, address_id: houseId, assigned_at: now, title: 'Outside light',
          }, now);
          const day = addDays(today, c.busy.dayOffset);
          await fixer.post(`/api/jobs/${other.uuid}/assignment/booking`, { starts_at: londonToUtc(day, hh(c.busy.startHour)).toISOString(), ends_at: londonToUtc(day, hh(c.busy.startHour + 2)).toISOString() });
        }
        const windows = c.windows.map((x) => {
          const day = addDays(today, x.dayOffset);
          return { starts_at: londonToUtc(day, hh(x.startHour)), ends_at: londonToUtc(day, hh(Math.min(x.startHour + x.hours, 23))) };
        });
        if (windows.length > 0) {
          const res = await tenant.put(`/api/jobs/${job.uuid}/visit/windows`, { windows: windows.map((x) => ({ starts_at: x.starts_at.toISOString(), ends_at: x.ends_at.toISOString() })) });
          expect(res.statusCode, res.body).toBe(200);
        }
        const plan = await tenant.get(`/api/jobs/${job.uuid}/visit`);
        expect(plan.statusCode, plan.body).toBe(200);
        const offered: Slot[] = plan.json().data.free_slots;
        for (const s of offered) {
          if (windows.length > 0) {
            expect(windows.some((x) => x.starts_at.getTime() <= Date.parse(s.starts_at) && Date.parse(s.ends_at) <= x.ends_at.getTime()), `${s.label} inside a window`).toBe(true);
          }
        }
        // Each offered slot in turn (a booking replaces the last one); at most 6 per case.
        for (const s of offered.slice(0, 6)) {
          const res = await tenant.post(`/api/jobs/${job.uuid}/visit/choice`, { starts_at: s.starts_at, ends_at: s.ends_at });
          expect(res.statusCode, `${s.label}: ${res.body}`).toBe(200);
        }
        if (windows.length > 0 && offered.length === 0) {
          const day = addDays(today, 20);
          const res = await tenant.post(`/api/jobs/${job.uuid}/visit/choice`, { starts_at: londonToUtc(day, '08:00').toISOString(), ends_at: londonToUtc(day, '12:00').toISOString() });
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toContain("is outside the tenant's windows");
        }
        // The job leaves the contractor's diary so the next case starts clear.
        await t.db.updateTable('jobs').set({ status_id: 10 }).where('contractor_id', '=', contractorId).execute();
      }),
      { numRuns: 15, seed: 20261206 },
    );
  }, 600_000);
});
