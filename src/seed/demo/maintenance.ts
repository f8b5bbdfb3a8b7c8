/**
 * Demo step for planned maintenance (docs/compliance.md "Planned maintenance", "Demo data"): three
 * schedules of Northwind on its first two properties, so a fresh demo's compliance page lists
 * them with their next due dates: the annual gas safety check and the five-yearly EICR of the
 * compliant property (each due when its current certificate expires), and the annual boiler
 * service of the next property (general maintenance, first due 45 days after the demo's date).
 * Every raise date lies in the future, so the scheduler raises no job on the demo's first start.
 * The last step, so its UUIDs shift no earlier demo row.
 */
import { addDays, addMonths, londonDate } from '../../lib/london-time.ts';
import type { DemoContext } from './context.ts';
import { complianceTypeIds, contractorIdsOf, contractorTradeCodes, firstAddressIds, insertReturning } from '../../db/seed.repository.ts';

/** Days since issue of the first property's certificates (src/seed/demo/compliance.ts PLAN[0]). */
const GAS_ISSUED_DAYS_AGO = 40;
const EICR_ISSUED_DAYS_AGO = 400;

/** Writes the planned maintenance schedules. */
export async function maintenanceStep(ctx: DemoContext): Promise<void> {
  const { trx, now } = ctx;
  const today = londonDate(now);
  const agencyId = ctx.ids.agencies.northwind;
  const [first, second] = await firstAddressIds(trx, agencyId, 2);
  if (first === undefined || second === undefined) return;
  const types = await complianceTypeIds(trx, agencyId);
  const own = new Set(await contractorIdsOf(trx, agencyId));
  const trades = await contractorTradeCodes(trx);
  const contractorFor = (code: string) => trades.find((t) => t.code === code && own.has(t.contractor_id))?.contractor_id ?? null;
  const base = { agency_id: agencyId, description: '', priority: 4, active_from: today, retired_at: null, created_by_user_id: null, created_at: now, updated_at: now };
  const rows = await insertReturning(trx, 'maintenance_schedules', [
    {
      ...base, uuid: ctx.uuid(), address_id: first, type_id: types.get('gas_safety') ?? null, title: 'Annual gas safety check',
      rrule: 'FREQ=YEARLY', starts_on: addMonths(addDays(today, -GAS_ISSUED_DAYS_AGO), 12), lead_days: 28,
      contractor_id: contractorFor('gas'), trade_id: ctx.ids.trades.gas ?? null,
    },
    {
      ...base, uuid: ctx.uuid(), address_id: first, type_id: types.get('eicr') ?? null, title: 'Electrical installation condition report (EICR)',
      rrule: 'FREQ=YEARLY;INTERVAL=5', starts_on: addMonths(addDays(today, -EICR_ISSUED_DAYS_AGO), 60), lead_days: 42,
      contractor_id: contractorFor('electrical'), trade_id: ctx.ids.trades.electrical ?? null,
    },
    {
      ...base, uuid: ctx.uuid(), address_id: second, type_id: null, title: 'Annual boiler service',
      description: 'Service the boiler and check the flue; leave the service sheet with the tenant.',
      rrule: 'FREQ=YEARLY', starts_on: addDays(today, 45), lead_days: 14,
      contractor_id: contractorFor('heating') ?? contractorFor('gas'), trade_id: ctx.ids.trades.heating ?? null,
    },
  ]);
  ctx.log(`demo: ${rows.length} planned maintenance schedules`);
}
