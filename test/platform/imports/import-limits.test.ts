/**
 * Imports are counted as they are read (docs/security.md, "Imports: counted as they are read"):
 * a workbook that unpacks to hundreds of MiB is refused by its declared sizes before anything is
 * inflated, one that lies about its sizes is stopped at the size it declares, and rows, cells and
 * the compression ratio stop the reader at the first one crossed, each with a 400 naming the
 * limit. The workbooks are real ZIPs built by test/platform/imports/workbook-zip.ts.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheet, SHEET_LIMITS, SheetLimitError } from '../../../src/modules/platform/imports/spreadsheet.ts';
import { buildTestApp, createAgency, userClient, type Client, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';
import { cell, repeatedSheet, sheetXml, withDeclaredSheetSize, workbook } from './workbook-zip.ts';

const MIB = 1024 * 1024;
const ROW = `<row>${cell('x')}</row>`;

/** The limit error readSheet throws for these bytes (fails the test when it reads them instead). */
async function refusal(bytes: Buffer, limits = SHEET_LIMITS): Promise<SheetLimitError> {
  try {
    await readSheet(bytes, limits);
  } catch (err) {
    if (err instanceof SheetLimitError) return err;
    throw err;
  }
  throw new Error('the file was read');
}

describe('imports: counted as they are read', () => {
  let bomb: Buffer;
  let bombBytes: number;
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    // About 230 MiB of sheet XML packed into about 0.7 MB: the workbook of the report.
    const rows = 5_000_000;
    bombBytes = rows * ROW.length;
    bomb = await workbook(repeatedSheet(['external_ref', 'line1', 'postcode'], ROW, rows));
    t = await buildTestApp();
    const agency = await createAgency(t.db, 'Limits Lets');
    admin = (await userClient(t, { role: 'admin', agencyId: agency.id })).client;
  });
  afterAll(async () => t?.close());

  it('a 0.7 MB workbook whose sheet unpacks to 230 MiB is refused by its declared size, nothing inflated', async () => {
    expect(bomb.length).toBeLessThan(MIB);
    expect(bombBytes).toBeGreaterThan(200 * MIB);
    const err = await refusal(bomb);
    expect(err.limit).toBe('uncompressed_bytes');
    expect(err.message).toBe('The workbook unpacks to more than 64 MiB; at most 64 MiB per file');
    expect(err.inflatedBytes).toBe(0);
  });

  it('the same workbook declaring a 1 MiB sheet is stopped once the sheet passes 1 MiB', async () => {
    const err = await refusal(withDeclaredSheetSize(bomb, MIB));
    expect(err.limit).toBe('uncompressed_bytes');
    expect(err.message).toBe("The workbook's part xl/worksheets/sheet1.xml unpacks to more than the 1048576 bytes it declares");
    // Read in chunks of at most 64 KiB: the reader stopped within a chunk or two of the declared size.
    expect(err.inflatedBytes).toBeLessThan(MIB + 256 * 1024);
  });

  it('a part packed more than 100 to 1 is refused before it is inflated', async () => {
    const packed = await workbook(repeatedSheet(['external_ref'], ROW, 200_000)); // about 9 MiB of XML
    const err = await refusal(packed);
    expect(err.limit).toBe('compression_ratio');
    expect(err.message).toBe("The workbook's part xl/worksheets/sheet1.xml is packed more than 100 to 1; not a spreadsheet this import reads");
    expect(err.inflatedBytes).toBe(0);
  });

  it('rows: the reader stops at the first row past the limit, long before the end of the sheet', async () => {
    const rows = 100_000;
    const sheet = await workbook(repeatedSheet(['external_ref'], ROW, rows));
    const err = await refusal(sheet, { ...SHEET_LIMITS, rows: 10, ratio: 1000 });
    expect(err.limit).toBe('rows');
    expect(err.message).toBe('The file has more than 10 rows; at most 10 per file');
    expect(err.inflatedBytes).toBeLessThan((rows * ROW.length) / 4);
  });

  it('cells: a row of 100,000 cells stops the reader at the first cell past the limit', async () => {
    const wide = await workbook(repeatedSheet(['external_ref'], cell('y'), 100_000));
    const err = await refusal(wide, { ...SHEET_LIMITS, cells: 1000, ratio: 1000 });
    expect(err.limit).toBe('cells');
    expect(err.message).toBe('The file has more than 1000 cells; at most 1000 per file');
  });

  it('CSV: rows and cells are counted record by record', async () => {
    const csv = Buffer.from(['external_ref,line1', ...Array.from({ length: 100 }, (_, i) => `P-${i},${i} High Street`)].join('\n'));
    expect((await refusal(csv, { ...SHEET_LIMITS, rows: 10 })).message).toBe('The file has more than 10 rows; at most 10 per file');
    expect((await refusal(csv, { ...SHEET_LIMITS, cells: 50 })).limit).toBe('cells');
    expect((await readSheet(csv)).rows).toHaveLength(100);
  });

  it('reads what exceljs writes: shared strings, numbers, dates, booleans, formulas, rich text', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Contractors');
    sheet.addRow(['External ref', 'Company name', 'Count', 'Expires', 'Active', 'Total', 'Note']);
    sheet.addRow(['C-001', 'Aire Valley Plumbing Ltd', 42, new Date(Date.UTC(2027, 4, 31)), true, { formula: 'C2*2', result: 84 }, { richText: [{ text: 'Gas ' }, { text: 'Safe', font: { bold: true } }] }]);
    sheet.addRow([]);
    sheet.addRow(['C-002', 'Kirkstall Roofing', 1.5, null, false, null, '  spaced  ']);
    const read = await readSheet(Buffer.from(await book.xlsx.writeBuffer()));
    expect(read.headers).toEqual(['external_ref', 'company_name', 'count', 'expires', 'active', 'total', 'note']);
    expect(read.rows).toEqual([
      { row: 2, data: { external_ref: 'C-001', company_name: 'Aire Valley Plumbing Ltd', count: '42', expires: '2027-05-31', active: 'true', total: '84', note: 'Gas Safe' } },
      { row: 4, data: { external_ref: 'C-002', company_name: 'Kirkstall Roofing', count: '1.5', expires: '', active: 'false', total: '', note: 'spaced' } },
    ]);
    expect(read.encoding).toBe('xlsx');
  });

  it('a workbook without a header row, or not a workbook at all, is a 400 reason', async () => {
    await expect(readSheet(await workbook(sheetXml([])))).rejects.toThrow('The file has no header row');
    await expect(readSheet(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]))).rejects.toThrow('The file is not a readable XLSX workbook');
  });

  it('POST /api/imports: the bomb is a 400 naming the limit, and nothing is recorded', async () => {
    const res = await admin.post('/api/imports', form(bomb, 'properties.xlsx', { entity: 'addresses' }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'The workbook unpacks to more than 64 MiB; at most 64 MiB per file' });
    expect(await t.db.selectFrom('imports').select('id').execute()).toEqual([]);
  });

  it('POST /api/imports: a CSV of 50,001 rows is a 400 naming the row limit', async () => {
    const csv = Buffer.from(['external_ref,line1,town,postcode', ...Array.from({ length: 50_001 }, (_, i) => `P-${i},${i} High Street,Leeds,LS6 1AB`)].join('\n'));
    const res = await admin.post('/api/imports', form(csv, 'properties.csv', { entity: 'addresses' }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('The file has more than 50000 rows; at most 50000 per file');
  });
});
