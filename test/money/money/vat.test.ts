import { describe, expect, it } from 'vitest';
import { divRoundHalfUp, formatPounds, lineAmounts, toQuantityMilli, totalsOf } from '../../../src/modules/money/money/vat.ts';

// Worked examples: quantity, unit price (pence), rate (bp), registered -> net, VAT (pence).
const EXAMPLES: Array<[string, number, number, number, boolean, number, number]> = [
  ['standard 20 % whole pounds', 1, 10_000, 2000, true, 10_000, 2_000],
  ['standard: 0.5p of VAT rounds up', 1, 1_234, 2000, true, 1_234, 247], // 246.8 -> 247
  ['standard: exactly half a penny rounds up', 1, 1_238, 2000, true, 1_238, 248], // 247.6 -> 248
  ['standard: below half rounds down', 1, 1_231, 2000, true, 1_231, 246], // 246.2 -> 246
  ['reduced 5 %: half a penny rounds up', 1, 1_010, 500, true, 1_010, 51], // 50.5 -> 51
  ['reduced 5 % below half', 1, 1_009, 500, true, 1_009, 50], // 50.45 -> 50
  ['zero rate', 3, 2_500, 0, true, 7_500, 0],
  ['exempt', 1, 9_999, 0, true, 9_999, 0],
  ['fractional hours: 1.5 x 4,999p = 7,498.5 -> 7,499 net', 1.5, 4_999, 2000, true, 7_499, 1_500], // 1499.8 -> 1500
  ['non-registered contractor charges no VAT at standard', 2, 6_000, 2000, false, 12_000, 0],
  ['non-registered contractor charges no VAT at reduced', 1, 1_010, 500, false, 1_010, 0],
];

describe('VAT per line, rounded half up to the penny', () => {
  for (const [name, qty, unit, bp, registered, net, vat] of EXAMPLES) {
    it(name, () => {
      const a = lineAmounts({ quantityMilli: toQuantityMilli(qty)!, unitPricePence: unit, rateBp: bp }, registered);
      expect(a.netPence).toBe(net);
      expect(a.vatPence).toBe(vat);
    });
  }

  it('totals are the sums of the per-line amounts (not VAT on the total)', () => {
    // Three lines of 1,234p at 20 %: per line 246.8 -> 247 each = 741; on the total 740.4 -> 740.
    const lines = [1, 2, 3].map(() => lineAmounts({ quantityMilli: 1000, unitPricePence: 1_234, rateBp: 2000 }, true));
    expect(totalsOf(lines)).toEqual({ net_pence: 3_702, vat_pence: 741, gross_pence: 4_443 });
  });

  it('a mixed invoice of 20 %, 5 % and zero lines', () => {
    const lines = [
      lineAmounts({ quantityMilli: 2000, unitPricePence: 4_500, rateBp: 2000 }, true),
      lineAmounts({ quantityMilli: 1000, unitPricePence: 12_345, rateBp: 500 }, true),
      lineAmounts({ quantityMilli: 1000, unitPricePence: 800, rateBp: 0 }, true),
    ];
    expect(totalsOf(lines)).toEqual({ net_pence: 22_145, vat_pence: 1_800 + 617, gross_pence: 24_562 });
  });

  it('quantities with more than three decimals are refused', () => {
    expect(toQuantityMilli(1.2345)).toBeNull();
    expect(toQuantityMilli(0.001)).toBe(1);
  });

  it('integer helpers', () => {
    expect(divRoundHalfUp(5, 10)).toBe(1);
    expect(divRoundHalfUp(4, 10)).toBe(0);
    expect(formatPounds(123_456)).toBe('£1,234.56');
  });
});
