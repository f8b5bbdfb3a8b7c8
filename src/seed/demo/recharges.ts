/**
 * Demo step of the money documents, recharges and statements (docs/money.md "Invoice PDF",
 * "Recharges", "Statements"): Northwind's legal name and registered address (the customer on its
 * contractors' invoices), Fletcher's business address (the supplier), a 10 % management fee on
 * recharges, a landlord for every billed property that had none, and the recharges of every
 * issued invoice and credit note, oldest first (so recharge numbers follow dates): each
 * landlord then has a statement. Deterministic: uuids from ctx.uuid().
 */
import { makeRecharges } from '../../modules/money/recharges/index.ts';
import type { DemoContext } from './context.ts';
import { agencyLegalName, billedInvoices, hasLandlord, insertRows, landlordIdsOf, updateById } from '../../db/seed.repository.ts';

/** Writes Northwind's recharge data. */
export async function rechargesStep(ctx: DemoContext): Promise<void> {
  const { trx, ids } = ctx;
  const agencyId = ids.agencies.northwind;
  if ((await agencyLegalName(trx, agencyId)) === null) {
    await updateById(trx, 'agencies', agencyId, { legal_name: 'Northwind Lettings Ltd', registered_line1: '14 Park Row', registered_line2: null, registered_town: 'Leeds', registered_postcode: 'LS1 5HD' });
  }
  await updateById(trx, 'contractors', ids.demoContractorId, { address_line1: 'Unit 7, Kirkstall Forge', address_line2: null, address_town: 'Leeds', address_postcode: 'LS5 3BF' });
  await insertRows(trx, 'recharge_settings', [{ agency_id: agencyId, fee_mode: 'percent', fee_percent_bp: 1000, fee_fixed_pence: 0, updated_at: ctx.now }]);
  const landlords = await landlordIdsOf(trx, agencyId);
  const billed = await billedInvoices(trx, agencyId);
  for (const [n, inv] of billed.entries()) {
    if (inv.address_id === null || landlords.length === 0) continue;
    if (!(await hasLandlord(trx, inv.address_id))) {
      await insertRows(trx, 'landlord_properties', [{ landlord_id: landlords[n % landlords.length]!, address_id: inv.address_id, share_bp: 10_000, created_at: ctx.now }]);
    }
  }
  let made = 0;
  for (const inv of billed) made += await makeRecharges(trx, inv.id, ctx.now, ctx.uuid);
  ctx.log(`demo: ${made} landlord recharges with a 10 % fee, agency and contractor addresses for the invoice PDFs (Northwind)`);
}
