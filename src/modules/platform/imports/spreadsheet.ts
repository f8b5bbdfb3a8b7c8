/**
 * Reading an uploaded spreadsheet into rows of text (docs/onboarding.md, "Import"): XLSX by its
 * bytes (a ZIP: exceljs reads the first worksheet), anything else as CSV (csv-parse) with its
 * encoding and delimiter detected. Encoding: a UTF-8 or UTF-16 byte-order mark, else UTF-8 when
 * the bytes are valid UTF-8, else Windows-1252 (what Excel on Windows saves as "CSV"; Node's
 * TextDecoder knows it). Delimiter: the one of `,` `;` TAB `|` found most often in the header
 * line outside quotes. Header names are matched case-insensitively, spaces and dashes read as `_`.
 */
import type { CellValue } from 'exceljs';

export interface Sheet {
  /** Normalised header names, in file order. */
  headers: string[];
  /** One object per data row (header -> trimmed text), in file order; blank rows left out. */
  rows: { row: number; data: Record<string, string> }[];
  encoding: string;
  delimiter: string | null;
}

/** A file that cannot be read at all (400 with this reason). */
export class SheetError extends Error {}

/** The header name as the importer matches it: "Post Code" -> "post_code". */
export function normaliseHeader(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** The text encoding of a CSV file's bytes: utf-8, utf-16le, utf-16be or windows-1252. */
export function detectEncoding(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The delimiter most often found outside quotes in the first line (comma when none). */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0], ['|', 0]]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

function toSheet(table: string[][], encoding: string, delimiter: string | null): Sheet {
  const [head, ...body] = table;
  if (!head || head.every((h) => !h.trim())) throw new SheetError('The file has no header row');
  const headers = head.map(normaliseHeader);
  const rows: Sheet['rows'] = [];
  body.forEach((cells, i) => {
    if (cells.every((c) => !String(c ?? '').trim())) return;
    const data: Record<string, string> = {};
    headers.forEach((h, j) => {
      if (h) data[h] = String(cells[j] ?? '').trim();
    });
    rows.push({ row: i + 2, data });
  });
  return { headers, rows, encoding, delimiter };
}

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as CellValue);
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    return '';
  }
  return String(value);
}

/**
 * Reads an uploaded CSV or XLSX file.
 * @throws SheetError for an unreadable file or one without a header row
 */
export async function readSheet(bytes: Buffer): Promise<Sheet> {
  if (bytes.length === 0) throw new SheetError('The file is empty');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    // Loaded when first used (docs/operations.md "Starting"): not on the start-up path.
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
    } catch {
      throw new SheetError('The file is not a readable XLSX workbook');
    }
    const sheet = book.worksheets[0];
    if (!sheet) throw new SheetError('The workbook has no worksheet');
    const table: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, n) => {
      const values = row.values as CellValue[];
      table[n - 1] = values.slice(1).map(cellText);
    });
    for (let i = 0; i < table.length; i++) table[i] ??= [];
    return toSheet(table, 'xlsx', null);
  }
  const encoding = detectEncoding(bytes);
  const text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(text);
  const { parse } = await import('csv-parse/sync');
  let table: string[][];
  try {
    table = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (err) {
    throw new SheetError(`The CSV file cannot be read: ${(err as Error).message.split('\n')[0]}`);
  }
  return toSheet(table, encoding, delimiter);
}
