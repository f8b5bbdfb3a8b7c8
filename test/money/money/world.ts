/** The money test world: attachedRecordsWorld plus a completed job, VAT registration and an agency VAT number. */
import { attachedRecordsWorld } from '../../helpers/attached-records-world.ts';
import { insertJob } from '../../helpers/attached-records-world.ts';
import type { TestApp } from '../../helpers/app.ts';

/** Builds the world; `completed` is a Completed job of agency A assigned to the contractor. */
export async function moneyWorld(t: TestApp) {
  const w = await attachedRecordsWorld(t);
  const completed = await insertJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, contractorId: w.contractorId, statusId: 7, title: 'Replace tap' });
  const contractorUuid = (await t.db.selectFrom('contractors').select('uuid').where('id', '=', w.contractorId).executeTakeFirstOrThrow()).uuid;
  await w.adminA.client.put(`/api/pricing/contractors/${contractorUuid}/vat`, { registered: true, vat_number: 'GB123456789' });
  await w.adminA.client.put('/api/pricing/settings', { vat_number: 'GB987654321', payment_terms_days: 30 });
  // The particulars a VAT invoice needs (docs/money.md "Invoices as HMRC reads them"): the supplier's
  // and the customer's addresses, and a self-billing agreement for the invoices the agency numbers.
  await t.db.updateTable('contractors').set({ address_line1: '2 Mill Lane', address_town: 'Leeds', address_postcode: 'LS6 1AA' }).where('id', '=', w.contractorId).execute();
  await t.db.updateTable('agencies').set({ legal_name: 'Agency A Ltd', registered_line1: '14 Park Row', registered_town: 'Leeds', registered_postcode: 'LS1 5HD' }).where('id', '=', w.agencyA.id).execute();
  const sb = await w.adminA.client.put(`/api/pricing/contractors/${contractorUuid}/self-billing`, { starts_on: '2026-01-01', ends_on: '2026-12-31', review_on: '2026-12-15', vat_number_checked_on: '2026-01-02' });
  if (sb.statusCode !== 200) throw new Error(`self-billing agreement: ${sb.body}`);
  return { ...w, completed, contractorUuid };
}

/** Two lines: 1.5 hours labour at £45.00 (20 %) and a part at £10.10 (5 %). */
export const LINES = [
  { description: 'Labour', quantity: 1.5, unit_price_pence: 4_500, vat_rate: 'standard' },
  { description: 'Energy-saving part', quantity: 1, unit_price_pence: 1_010, vat_rate: 'reduced' },
];
// net 6,750 + 1,010 = 7,760; VAT 1,350 + 51 (50.5 up) = 1,401; gross 9,161
export const LINES_TOTALS = { net_pence: 7_760, vat_pence: 1_401, gross_pence: 9_161 };
