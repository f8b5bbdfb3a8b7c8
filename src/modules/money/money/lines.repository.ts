/** SQL for VAT rates, the money lines of quotes and invoices, and contractor VAT registration. */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import type { LineDto } from './money.schemas.ts';
import { QUANTITY_SCALE } from './vat.ts';

/** Every VAT rate row, by code then start date. */
export function listVatRates(db: DbOrTrx) {
  return db.selectFrom('vat_rates')
    .select(['code', 'name', 'rate_bp', sql<string>`effective_from::text`.as('effective_from'), sql<string | null>`effective_to::text`.as('effective_to')])
    .orderBy('code').orderBy('effective_from').execute();
}

/** Rates (basis points) by code in force on an ISO date. */
export async function ratesOn(db: DbOrTrx, date: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('vat_rates').select(['code', 'rate_bp'])
    .where(sql<boolean>`effective_from <= ${date}::date and (effective_to is null or effective_to > ${date}::date)`)
    .execute();
  return new Map(rows.map((r) => [r.code, r.rate_bp]));
}

/** VAT registration of a contractor (absent row: not registered). */
export async function contractorVat(db: DbOrTrx, contractorId: number): Promise<{ registered: boolean; vat_number: string | null }> {
  const row = await db.selectFrom('contractor_vat').select(['registered', 'vat_number']).where('contractor_id', '=', contractorId).executeTakeFirst();
  return row ?? { registered: false, vat_number: null };
}

/** Sets a contractor's VAT registration. */
export async function upsertContractorVat(db: DbOrTrx, contractorId: number, registered: boolean, vatNumber: string | null, now: Date) {
  await db.insertInto('contractor_vat').values({ contractor_id: contractorId, registered, vat_number: vatNumber, updated_at: now })
    .onConflict((oc) => oc.column('contractor_id').doUpdateSet({ registered, vat_number: vatNumber, updated_at: now })).execute();
}

/** A computed line ready to store. */
export interface StoredLine {
  description: string;
  quantity_milli: number;
  unit_price_pence: number;
  vat_rate_code: string;
  vat_rate_bp: number;
  net_pence: number;
  vat_pence: number;
  price_item_id: number | null;
}

/** Replaces the lines of one quote or invoice. */
export async function replaceLines(db: DbOrTrx, owner: { quoteId: number } | { invoiceId: number }, lines: StoredLine[]) {
  const key = 'quoteId' in owner ? { quote_id: owner.quoteId, invoice_id: null } : { quote_id: null, invoice_id: owner.invoiceId };
  if ('quoteId' in owner) await db.deleteFrom('money_lines').where('quote_id', '=', owner.quoteId).execute();
  else await db.deleteFrom('money_lines').where('invoice_id', '=', owner.invoiceId).execute();
  if (lines.length === 0) return;
  await db.insertInto('money_lines').values(lines.map((l, i) => ({ ...key, ...l, position: i + 1 }))).execute();
}

/** Lines of several quotes or invoices, grouped by owner id, as LineDto. */
export async function linesOf(db: DbOrTrx, column: 'quote_id' | 'invoice_id', ids: number[]): Promise<Map<number, LineDto[]>> {
  const out = new Map<number, LineDto[]>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom('money_lines as l').leftJoin('price_items as p', 'p.id', 'l.price_item_id')
    .select(['l.quote_id', 'l.invoice_id', 'l.position', 'l.description', 'l.quantity_milli', 'l.unit_price_pence', 'l.vat_rate_code', 'l.vat_rate_bp', 'l.net_pence', 'l.vat_pence', 'p.uuid as price_item_uuid'])
    .where(`l.${column}`, 'in', ids).orderBy('l.position').execute();
  for (const r of rows) {
    const owner = (column === 'quote_id' ? r.quote_id : r.invoice_id)!;
    const list = out.get(owner) ?? [];
    list.push({
      position: r.position, description: r.description, quantity: r.quantity_milli / QUANTITY_SCALE, unit_price_pence: r.unit_price_pence,
      vat_rate: r.vat_rate_code, vat_rate_bp: r.vat_rate_bp, net_pence: r.net_pence, vat_pence: r.vat_pence, price_item_uuid: r.price_item_uuid,
    });
    out.set(owner, list);
  }
  return out;
}

/** Price items of an agency by uuid -> id. */
export async function priceItemIds(db: DbOrTrx, agencyId: number, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = await db.selectFrom('price_items').select(['id', 'uuid']).where('agency_id', '=', agencyId).where('uuid', 'in', uuids).execute();
  return new Map(rows.map((r) => [r.uuid, r.id]));
}
