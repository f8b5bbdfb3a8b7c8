/**
 * VAT and totals arithmetic (docs/money.md "VAT"): pure functions over integer pence. Each line's
 * net is quantity x unit price rounded half up to the penny; each line's VAT is net x rate rounded
 * half up to the penny (HMRC allows rounding per line, VAT Notice 700 section 17.5); totals are
 * sums of lines. A contractor not registered for VAT charges none on any line.
 */
import { londonDate } from '../../../lib/london-time.ts';

/** Quantities travel as numbers with up to 3 decimals and are kept as thousandths (integers). */
export const QUANTITY_SCALE = 1000;

/** One line as entered: quantity in units, unit price in pence ex VAT, VAT rate in basis points. */
export interface LineInput {
  quantityMilli: number;
  unitPricePence: number;
  rateBp: number;
}

/** A line with its computed amounts (pence). */
export interface LineAmounts {
  netPence: number;
  vatPence: number;
  /** Rate actually applied (0 when the contractor is not VAT registered). */
  appliedRateBp: number;
}

export interface Totals {
  net_pence: number;
  vat_pence: number;
  gross_pence: number;
}

/**
 * Divides a non-negative integer by a positive integer, rounding half up.
 * @throws RangeError for a negative numerator or a result beyond safe integers
 */
export function divRoundHalfUp(numerator: number, denominator: number): number {
  if (numerator < 0 || !Number.isSafeInteger(numerator)) throw new RangeError('numerator out of range');
  return Math.floor((numerator + Math.floor(denominator / 2)) / denominator);
}

/**
 * A quantity (e.g. 1.5 hours) as thousandths.
 * @returns the integer number of thousandths, or null when the value has more than 3 decimals
 */
export function toQuantityMilli(quantity: number): number | null {
  const milli = Math.round(quantity * QUANTITY_SCALE);
  return Math.abs(milli - quantity * QUANTITY_SCALE) < 1e-6 ? milli : null;
}

/**
 * Amounts of one line.
 * @param line quantity (thousandths), unit price (pence), rate (basis points, 2000 = 20 %)
 * @param vatRegistered false: no VAT charged, whatever the line's rate
 */
export function lineAmounts(line: LineInput, vatRegistered: boolean): LineAmounts {
  const netPence = divRoundHalfUp(line.quantityMilli * line.unitPricePence, QUANTITY_SCALE);
  const appliedRateBp = vatRegistered ? line.rateBp : 0;
  const vatPence = divRoundHalfUp(netPence * appliedRateBp, 10_000);
  return { netPence, vatPence, appliedRateBp };
}

/** Net, VAT and gross totals (pence) of computed lines. */
export function totalsOf(lines: readonly LineAmounts[]): Totals {
  const net = lines.reduce((s, l) => s + l.netPence, 0);
  const vat = lines.reduce((s, l) => s + l.vatPence, 0);
  return { net_pence: net, vat_pence: vat, gross_pence: net + vat };
}

/** £1,234.56 from 123456 pence (for PDFs and messages). */
export function formatPounds(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  const pounds = Math.floor(abs / 100).toLocaleString('en-GB');
  return `${sign}£${pounds}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1234.56 from 123456 pence (plain decimal, for CSV). */
export function decimalPounds(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The date (YYYY-MM-DD) of an instant in London, the date of every money document (docs/money.md
 * "Dates"): an invoice issued at 00:30 BST on 1 July (23:30 UTC on 30 June) is dated 1 July, in
 * the VAT period of 1 July (VAT Regulations 1995 reg. 14(1)(b): the date of issue).
 */
export function isoDate(at: Date): string {
  return londonDate(at);
}

/** The ISO date `days` after an ISO date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The tax point (time of supply) of a contractor's invoice (VATA 1994 s. 6(3) to 6(5); HMRC
 * manual VATTOS4000 and VATTOS5000): the basic tax point is the date the work was done; an
 * invoice issued within 14 days after it becomes the tax point instead (actual tax point), as
 * does an invoice issued before the work.
 * @param issueDate the invoice date (ISO), null while draft
 * @param supplyDate the date of supply (ISO), null when unknown
 * @returns the ISO date, or null while draft
 */
export function taxPoint(issueDate: string | null, supplyDate: string | null): string | null {
  if (issueDate === null) return null;
  if (supplyDate === null || supplyDate >= issueDate) return issueDate;
  return addDays(supplyDate, 14) >= issueDate ? issueDate : supplyDate;
}
