/**
 * The agency export read a page at a time (src/modules/platform/agencies/export.service.ts,
 * docs/onboarding.md "Export"): the ids first, then the rows of each slice of them; the CSV written
 * page by page is the same text as the whole file written at once.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { csvStream, pagesOf } from '../../src/modules/platform/agencies/export.service.ts';

type Row = Record<string, string | number | null>;

/** A fake export query over `rows` (keyed by `id`), recording the ids each page asked for. */
function query(rows: Row[]) {
  const asked: number[][] = [];
  return {
    asked,
    keys: async () => rows.map((r) => r.id as number),
    page: async (ids: readonly number[]) => (asked.push([...ids]), rows.filter((r) => ids.includes(r.id as number))),
  };
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('agency export pages', () => {
  const rows: Row[] = [1, 2, 3, 4, 5].map((id) => ({ id, name: id === 3 ? '=SUM(A1)' : `Row ${id}`, note: id === 4 ? 'a, "quoted" one' : null }));

  it('reads the ids once, then the rows of each slice of them, in order', async () => {
    const q = query(rows);
    const pages = [];
    for await (const page of pagesOf(q, 2)) pages.push(page.map((r) => r.id));
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    expect(q.asked).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('writes the same CSV page by page as the whole file at once: one header, CRLF, formulas quoted', async () => {
    const csv = await text(csvStream(pagesOf(query(rows), 2), ['uuid']));
    const whole = stringify([['id', 'name', 'note'], ...rows.map((r) => [String(r.id), r.name === '=SUM(A1)' ? "'=SUM(A1)" : r.name, r.note ?? ''])], { record_delimiter: '\r\n' });
    expect(csv).toBe(whole);
    expect(csv.split('\r\n')[0]).toBe('id,name,note');
  });

  it('an entity without rows is its header alone', async () => {
    expect(await text(csvStream(pagesOf(query([]), 2), ['uuid', 'name']))).toBe('uuid,name\r\n');
  });
});
