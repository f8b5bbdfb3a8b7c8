/**
 * Demo step for the compliance register (docs/compliance.md): the UK item types for both
 * agencies, and on the first properties of each agency gas safety, EICR, EPC and alarm items in
 * every state (valid, due soon, expired, missing), certificates issued by the agency's first gas
 * or electrical contractor.
 */
import { UK_COMPLIANCE_TYPES } from '../../modules/jobs/compliance/index.ts';
import { addDays, addMonths, londonDate } from '../../lib/london-time.ts';
import type { DemoContext } from './context.ts';
import { contractorIdsOf, firstAddressIds, insertId, insertReturning, insertRows } from '../../db/seed.repository.ts';

/** Per property (in address order): for each type the days since issue, or null for missing. */
const PLAN: ReadonlyArray<Record<string, number | null>> = [
  { gas_safety: 40, eicr: 400, epc: 900, smoke_co_alarms: 120 }, // compliant
  { gas_safety: 350, eicr: 300, epc: 2000, smoke_co_alarms: 60 }, // gas due soon
  { gas_safety: 380, eicr: 1000, epc: 100, smoke_co_alarms: 200 }, // gas expired
  { gas_safety: null, eicr: null, epc: null, smoke_co_alarms: null }, // nothing on file yet
  { gas_safety: 200, eicr: 1850, epc: 3700, smoke_co_alarms: null }, // EICR and EPC expired, alarms missing
  { gas_safety: 10, eicr: 1800, epc: 500, smoke_co_alarms: 30 }, // EICR due soon
];

/** Writes the compliance demo data. */
export async function complianceStep(ctx: DemoContext): Promise<void> {
  const { trx, now } = ctx;
  const today = londonDate(now);
  let certificates = 0;
  for (const agencyId of [ctx.ids.agencies.northwind, ctx.ids.agencies.southbank]) {
    const types = await insertReturning(
      trx,
      'compliance_item_types',
      UK_COMPLIANCE_TYPES.map((t) => ({ ...t, uuid: ctx.uuid(), agency_id: agencyId, created_at: now, updated_at: now })),
    );
    const addresses = await firstAddressIds(trx, agencyId, PLAN.length);
    const [contractorId] = await contractorIdsOf(trx, agencyId);
    for (const [i, addressId] of addresses.entries()) {
      for (const [code, age] of Object.entries(PLAN[i]!)) {
        const type = types.find((t) => t.code === code)!;
        const itemId = await insertId(trx, 'compliance_items', { uuid: ctx.uuid(), agency_id: agencyId, address_id: addressId, type_id: type.id, created_at: now, updated_at: now });
        if (age === null) continue;
        const issued = addDays(today, -age);
        await insertRows(trx, 'compliance_certificates', [{
          uuid: ctx.uuid(), agency_id: agencyId, item_id: itemId, issued_on: issued,
          expires_on: type.interval_months ? addMonths(issued, type.interval_months) : null,
          reference: `${code.toUpperCase()}-${1000 + certificates}`, contractor_id: contractorId ?? null,
          job_id: null, job_file_id: null, created_by_user_id: null, created_at: now,
        }]);
        certificates++;
      }
    }
  }
  ctx.log(`demo: compliance register (${certificates} certificates on ${PLAN.length} properties per agency)`);
}
