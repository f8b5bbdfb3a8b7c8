/**
 * Turns lines as written into stored lines with server-computed amounts (docs/money.md "VAT"):
 * the rate of each line's VAT code in force on the given date, no VAT for a contractor not
 * registered, and the totals.
 */
import type { DbOrTrx } from '../../../db/types.ts';
import { invalidParam } from '../../../core/errors.ts';
import * as lrepo from './lines.repository.ts';
import type { LineDto, LineInputDto } from './money.schemas.ts';
import { lineAmounts, QUANTITY_SCALE, toQuantityMilli, totalsOf, type Totals } from './vat.ts';

/** Largest total a record may carry (PostgreSQL integer). */
const MAX_TOTAL = 2_000_000_000;

/**
 * Computes the lines of a quote or invoice.
 * @param on ISO date whose VAT rates apply (issue date, or today for drafts and quotes)
 * @returns stored lines and totals (pence)
 * @throws 400 `lines` for a quantity with more than 3 decimals, a price item of another agency or
 *   totals beyond 2,000,000,000 pence; 400 `vat_rate` when no rate of that code is in force
 */
export async function computeLines(db: DbOrTrx, agencyId: number, on: string, vatRegistered: boolean, input: readonly LineInputDto[]): Promise<{ lines: lrepo.StoredLine[]; totals: Totals }> {
  const rates = await lrepo.ratesOn(db, on);
  const itemUuids = [...new Set(input.map((l) => l.price_item_uuid).filter((u): u is string => typeof u === 'string'))];
  const items = await lrepo.priceItemIds(db, agencyId, itemUuids);
  const lines: lrepo.StoredLine[] = input.map((l) => {
    const quantityMilli = toQuantityMilli(l.quantity);
    if (quantityMilli === null || quantityMilli < 1) throw invalidParam('lines');
    const rateBp = rates.get(l.vat_rate);
    if (rateBp === undefined) throw invalidParam('vat_rate');
    let priceItemId: number | null = null;
    if (l.price_item_uuid) {
      priceItemId = items.get(l.price_item_uuid) ?? null;
      if (priceItemId === null) throw invalidParam('price_item_uuid');
    }
    const amounts = lineAmounts({ quantityMilli, unitPricePence: l.unit_price_pence, rateBp }, vatRegistered);
    return {
      description: l.description.trim() || l.description,
      quantity_milli: quantityMilli,
      unit_price_pence: l.unit_price_pence,
      vat_rate_code: l.vat_rate,
      vat_rate_bp: amounts.appliedRateBp,
      net_pence: amounts.netPence,
      vat_pence: amounts.vatPence,
      price_item_id: priceItemId,
    };
  });
  const totals = totalsOf(lines.map((l) => ({ netPence: l.net_pence, vatPence: l.vat_pence, appliedRateBp: l.vat_rate_bp })));
  if (totals.gross_pence > MAX_TOTAL) throw invalidParam('lines');
  return { lines, totals };
}

/** Wire shape of computed lines; `itemUuids[i]` is the uuid of line i's price item or null. */
export function storedLinesToDto(lines: readonly lrepo.StoredLine[], itemUuids: readonly (string | null)[]): LineDto[] {
  return lines.map((l, i) => ({
    position: i + 1, description: l.description, quantity: l.quantity_milli / QUANTITY_SCALE, unit_price_pence: l.unit_price_pence,
    vat_rate: l.vat_rate_code, vat_rate_bp: l.vat_rate_bp, net_pence: l.net_pence, vat_pence: l.vat_pence, price_item_uuid: itemUuids[i] ?? null,
  }));
}
