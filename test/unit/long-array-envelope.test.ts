/** src/http/envelope.ts `okWithLongArray`: the dry run's answer written in slices is the JSON of `ok()`. */
import { describe, expect, it } from 'vitest';
import { ok, okWithLongArray } from '../../src/http/envelope.ts';

describe('okWithLongArray', () => {
  it('writes the same JSON as ok() around the record and its array, across slice edges', async () => {
    const rows = Array.from({ length: 2_501 }, (_, i) => ({ row: i + 2, outcome: i % 7 === 0 ? 'error' : 'create', errors: i % 7 === 0 ? [{ column: 'postcode', reason: 'not a UK postcode: "X"' }] : [] }));
    for (const items of [rows, rows.slice(0, 1_000), rows.slice(0, 1), []]) {
      const body = await okWithLongArray({ uuid: 'u', counts: { create: 1 }, kept_columns: [] }, 'rows', items, 'Dry run: "quoted"', 1_000);
      expect(JSON.parse(body.toString('utf8'))).toEqual(ok({ uuid: 'u', counts: { create: 1 }, kept_columns: [], rows: items }, 'Dry run: "quoted"'));
    }
  });

  it('writes a record with no other field', async () => {
    expect((await okWithLongArray({}, 'rows', [1, 2], 'm')).toString()).toBe('{"success":true,"data":{"rows":[1,2]},"message":"m"}');
  });
});
