/**
 * Reading an uploaded spreadsheet into rows of text (docs/onboarding.md, "Import"), counting as it
 * reads and refusing at the first limit crossed (docs/security.md, "Imports: counted as they are
 * read"): data rows, cells, bytes unpacked from the workbook and the compression ratio of each of
 * its parts. Nothing is unpacked or parsed whole before the limits are checked.
 *
 * XLSX (a ZIP, known by its bytes): yauzl opens the ZIP by its central directory; every part's
 * declared size and ratio are checked before anything is inflated, and the bytes actually inflated
 * are counted as they stream (yauzl also stops a part that inflates past its declared size). The
 * parts are read as XML streams (saxes): the workbook (first sheet in tab order, the 1900 or 1904
 * date system), its relationships, the shared strings, the styles (which cells are dates) and the
 * first worksheet, row by row. Cell text: shared and inline strings as written, numbers as
 * JavaScript prints them, dates as ISO dates (YYYY-MM-DD), booleans as true/false, formulas by
 * their cached result, errors as empty.
 *
 * CSV (anything else): csv-parse as a stream, record by record, with the encoding and delimiter
 * detected. Encoding: a UTF-8 or UTF-16 byte-order mark, else UTF-8 when the bytes are valid
 * UTF-8, else Windows-1252 (what Excel on Windows saves as "CSV"; Node's TextDecoder knows it).
 * Delimiter: the one of `,` `;` TAB `|` found most often in the header line outside quotes. Header
 * names are matched case-insensitively, spaces and dashes read as `_`. A cell's leading quote before
 * a formula sign (what our export and spreadsheets write to show a formula as text) is taken off
 * (src/lib/spreadsheet-safe.ts, readCell).
 */
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { readCell } from '../../../lib/spreadsheet-safe.ts';

/** The limits a file is read within (docs/security.md, "Imports: counted as they are read"). */
export interface SheetLimits {
  /** Data rows (blank rows not counted). */
  rows: number;
  /** Cells read, header and blank cells included. */
  cells: number;
  /** Bytes unpacked from an XLSX file, all parts together. */
  uncompressedBytes: number;
  /** Unpacked bytes per packed byte of one XLSX part, checked once the part passes RATIO_GRACE_BYTES. */
  ratio: number;
}

/**
 * The import limits: 50,000 rows, 2,000,000 cells (50,000 rows of 40 columns), 64 MiB unpacked
 * (a 50,000-row sheet of 40 columns is about 60 MiB of XML), a ratio of 100 (Apache POI's default
 * floor for a ZIP entry's compressed/uncompressed size, 0.01; real sheets pack 5-20 times).
 */
export const SHEET_LIMITS: SheetLimits = { rows: 50_000, cells: 2_000_000, uncompressedBytes: 64 * 1024 * 1024, ratio: 100 };
/** A part smaller than this is not held to the ratio (small XML parts pack very well). */
export const RATIO_GRACE_BYTES = 1024 * 1024;
/** At most this many parts in a workbook. */
const MAX_ENTRIES = 10_000;
/** XLSX's own bounds (ECMA-376 Part 1, 18.3.1.73 and 18.3.1.12): rows and columns of a sheet. */
const MAX_SHEET_ROW = 1_048_576;
const MAX_SHEET_COLUMN = 16_384;

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

/** Which limit a file crossed: the reader stopped there (400 with this reason). */
export type SheetLimit = 'rows' | 'cells' | 'uncompressed_bytes' | 'compression_ratio';

/** A file refused at the first limit crossed; `inflatedBytes` is what had been unpacked by then. */
export class SheetLimitError extends SheetError {
  readonly limit: SheetLimit;
  readonly inflatedBytes: number;
  constructor(limit: SheetLimit, message: string, inflatedBytes: number) {
    super(message);
    this.limit = limit;
    this.inflatedBytes = inflatedBytes;
  }
}

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


const MIB = 1024 * 1024;

/** Bytes unpacked so far from one workbook, against its limits. */
class Budget {
  inflated = 0;
  readonly limits: SheetLimits;
  constructor(limits: SheetLimits) {
    this.limits = limits;
  }

  /** Counts `n` more bytes of a part packed in `packed` bytes, of which `partBytes` are now unpacked. */
  count(n: number, partBytes: number, packed: number, name: string): void {
    this.inflated += n;
    if (this.inflated > this.limits.uncompressedBytes) throw this.tooLarge();
    if (partBytes > RATIO_GRACE_BYTES && partBytes > this.limits.ratio * Math.max(packed, 1)) throw this.tooPacked(name);
  }

  tooLarge(): SheetLimitError {
    return new SheetLimitError('uncompressed_bytes', `The workbook unpacks to more than ${this.limits.uncompressedBytes / MIB} MiB; at most ${this.limits.uncompressedBytes / MIB} MiB per file`, this.inflated);
  }

  tooPacked(name: string): SheetLimitError {
    return new SheetLimitError('compression_ratio', `The workbook's part ${name} is packed more than ${this.limits.ratio} to 1; not a spreadsheet this import reads`, this.inflated);
  }
}

/** Collects the rows of a sheet as they are read, counting rows and cells against the limits. */
class SheetBuilder {
  headers: string[] | null = null;
  readonly rows: Sheet['rows'] = [];
  private cells = 0;
  private readonly limits: SheetLimits;
  private readonly budget: Budget | null;
  constructor(limits: SheetLimits, budget: Budget | null) {
    this.limits = limits;
    this.budget = budget;
  }

  /** Counts `n` cells read. @throws SheetLimitError past the cell limit */
  countCells(n: number): void {
    this.cells += n;
    if (this.cells > this.limits.cells) {
      throw new SheetLimitError('cells', `The file has more than ${this.limits.cells} cells; at most ${this.limits.cells} per file`, this.budget?.inflated ?? 0);
    }
  }

  /**
   * Adds row `row` (1-based; the header is row 1) whose cells were already counted.
   * @throws SheetError no header row; SheetLimitError past the row limit
   */
  add(row: number, cells: readonly (string | undefined)[]): void {
    if (this.headers === null) {
      if (row !== 1 || cells.every((c) => !(c ?? '').trim())) throw new SheetError('The file has no header row');
      this.headers = Array.from(cells, (c) => normaliseHeader(c ?? ''));
      return;
    }
    if (cells.every((c) => !(c ?? '').trim())) return;
    if (this.rows.length >= this.limits.rows) {
      throw new SheetLimitError('rows', `The file has more than ${this.limits.rows} rows; at most ${this.limits.rows} per file`, this.budget?.inflated ?? 0);
    }
    const data: Record<string, string> = {};
    this.headers.forEach((h, j) => {
      // The quote an export put before a formula sign is taken off: the text comes back as typed.
      if (h) data[h] = readCell((cells[j] ?? '').trim());
    });
    this.rows.push({ row, data });
  }

  finish(encoding: string, delimiter: string | null): Sheet {
    if (this.headers === null) throw new SheetError('The file has no header row');
    return { headers: this.headers, rows: this.rows, encoding, delimiter };
  }
}

/** Records read between two turns of the event loop (readCsv). */
const READ_SLICE = 1000;

/** Reads a CSV file record by record (csv-parse's stream), counting rows and cells. */
async function readCsv(bytes: Buffer, limits: SheetLimits): Promise<Sheet> {
  const encoding = detectEncoding(bytes);
  const text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(text);
  const { parse } = await import('csv-parse');
  const builder = new SheetBuilder(limits, null);
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: true, bom: true });
  const source = Readable.from(textChunks(text, 64 * 1024));
  source.pipe(parser);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      builder.countCells(record.length);
      builder.add(++row, record);
      // Records already parsed are handed over without a turn of the event loop: the thread is
      // given back every READ_SLICE records, so reading a 50,000-row file does not hold every other
      // request of the process.
      if (row % READ_SLICE === 0) await setImmediate();
    }
  } catch (err) {
    if (err instanceof SheetError) throw err;
    throw new SheetError(`The CSV file cannot be read: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    source.destroy();
    parser.destroy();
  }
  return builder.finish(encoding, delimiter);
}

function* textChunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Opens a ZIP held in memory by its central directory (entries read one by one). */
function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

/** The parts of a ZIP by name, checked against the limits by their declared sizes before any is inflated. */
function listParts(zip: ZipFile, budget: Budget): Promise<Map<string, Entry>> {
  const { limits } = budget;
  return new Promise((resolve, reject) => {
    const parts = new Map<string, Entry>();
    let declared = 0;
    zip.on('entry', (entry: Entry) => {
      declared += entry.uncompressedSize;
      const fail =
        parts.size >= MAX_ENTRIES ? new SheetError(`The workbook has more than ${MAX_ENTRIES} parts`)
        : declared > limits.uncompressedBytes ? budget.tooLarge()
        : entry.uncompressedSize > RATIO_GRACE_BYTES && entry.uncompressedSize > limits.ratio * Math.max(entry.compressedSize, 1) ? budget.tooPacked(entry.fileName)
        : null;
      if (fail) {
        zip.close();
        reject(fail);
        return;
      }
      parts.set(entry.fileName.replace(/^\/+/, ''), entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(parts));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** Attributes of a tag whose name ends with `local` (any namespace prefix). */
function attr(tag: SaxesTagPlain, local: string): string | undefined {
  for (const [name, value] of Object.entries(tag.attributes)) if (name === local || name.endsWith(`:${local}`)) return value;
  return undefined;
}

/** A tag's name without its namespace prefix. */
function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * Streams one part through a fresh XML parser, counting the bytes it inflates; `handlers` may
 * throw to stop the read (the stream is destroyed at once).
 */
async function readPart(zip: ZipFile, entry: Entry, budget: Budget, handlers: (parser: SaxesParser) => void): Promise<void> {
  const parser = new SaxesParser();
  handlers(parser);
  const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
  const decoder = new TextDecoder('utf-8');
  let partBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      partBytes += chunk.length;
      budget.count(chunk.length, partBytes, entry.compressedSize, entry.fileName);
      parser.write(decoder.decode(chunk, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (err) {
    // yauzl stops a part that inflates past the size its header declares (validateEntrySizes).
    if (!(err instanceof SheetError) && /^too many bytes in the stream/.test((err as Error).message)) {
      throw new SheetLimitError('uncompressed_bytes', `The workbook's part ${entry.fileName} unpacks to more than the ${entry.uncompressedSize} bytes it declares`, budget.inflated);
    }
    throw err;
  } finally {
    stream.destroy();
  }
}

/** The relationships of a part: Id -> { type, target } with the target resolved to a part name. */
async function readRels(zip: ZipFile, parts: Map<string, Entry>, budget: Budget, partName: string): Promise<Map<string, { type: string; target: string }>> {
  const dir = partName.includes('/') ? partName.slice(0, partName.lastIndexOf('/') + 1) : '';
  const relsName = `${dir}_rels/${partName.slice(dir.length)}.rels`;
  const rels = new Map<string, { type: string; target: string }>();
  const entry = parts.get(relsName);
  if (!entry) return rels;
  await readPart(zip, entry, budget, (p) =>
    p.on('opentag', (tag) => {
      if (localName(tag.name) !== 'Relationship') return;
      const target = attr(tag, 'Target') ?? '';
      rels.set(attr(tag, 'Id') ?? '', { type: attr(tag, 'Type') ?? '', target: resolvePart(dir, target) });
    }),
  );
  return rels;
}

/** A relationship target as a part name: absolute (`/xl/x.xml`) or relative to `dir`, `..` resolved. */
function resolvePart(dir: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const s of segments) {
    if (s === '..') out.pop();
    else if (s !== '.' && s !== '') out.push(s);
  }
  return out.join('/');
}

/** The first relationship of a type (its URI ends with `/kind`). */
function relOfType(rels: Map<string, { type: string; target: string }>, kind: string): string | undefined {
  for (const r of rels.values()) if (r.type.endsWith(`/${kind}`)) return r.target;
  return undefined;
}

/** Built-in number formats that are dates (ECMA-376 Part 1, 18.8.30): 14-22 and 45-47. */
function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return (id >= 14 && id <= 22) || (id >= 45 && id <= 47);
  const bare = code.replace(/"[^"]*"/g, '').replace(/\[[^\]]*\]/g, '').replace(/\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** An Excel date serial (1900 or 1904 system) as an ISO date, as exceljs reads it. */
function serialToIsoDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

/** A cell reference's column, 1-based ("C7" -> 3); undefined when absent or out of the sheet. */
function columnOf(ref: string | undefined): number | undefined {
  const letters = ref?.match(/^([A-Z]{1,3})\d*$/i)?.[1];
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n <= MAX_SHEET_COLUMN ? n : undefined;
}

/** Reads the first worksheet of an XLSX workbook as a stream, counting bytes, rows and cells. */
async function readXlsx(bytes: Buffer, limits: SheetLimits): Promise<Sheet> {
  const budget = new Budget(limits);
  let zip: ZipFile;
  try {
    zip = await openZip(bytes);
  } catch {
    throw new SheetError('The file is not a readable XLSX workbook');
  }
  try {
    const parts = await listParts(zip, budget);
    const rootRels = await readRels(zip, parts, budget, '');
    const bookName = relOfType(rootRels, 'officeDocument') ?? 'xl/workbook.xml';
    const book = parts.get(bookName);
    if (!book) throw new SheetError('The file is not a readable XLSX workbook');

    let firstSheetRel: string | undefined;
    let date1904 = false;
    await readPart(zip, book, budget, (p) =>
      p.on('opentag', (tag) => {
        const name = localName(tag.name);
        if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(tag, 'date1904') ?? '');
        if (name === 'sheet' && firstSheetRel === undefined) firstSheetRel = attr(tag, 'id');
      }),
    );
    const bookRels = await readRels(zip, parts, budget, bookName);
    const sheetEntry = firstSheetRel === undefined ? undefined : parts.get(bookRels.get(firstSheetRel)?.target ?? '');
    if (!sheetEntry) throw new SheetError('The workbook has no worksheet');

    const shared = await readSharedStrings(zip, parts, budget, relOfType(bookRels, 'sharedStrings'));
    const dateStyles = await readDateStyles(zip, parts, budget, relOfType(bookRels, 'styles'));
    const builder = new SheetBuilder(limits, budget);
    await readSheetPart(zip, sheetEntry, budget, builder, { shared, dateStyles, date1904 });
    return builder.finish('xlsx', null);
  } catch (err) {
    if (err instanceof SheetError) throw err;
    throw new SheetError('The file is not a readable XLSX workbook');
  } finally {
    zip.close();
  }
}

/** The shared strings table (`<si>`: its `<t>` texts, phonetic runs left out). */
async function readSharedStrings(zip: ZipFile, parts: Map<string, Entry>, budget: Budget, name: string | undefined): Promise<string[]> {
  const entry = name === undefined ? undefined : parts.get(name);
  const strings: string[] = [];
  if (!entry) return strings;
  let text: string | null = null;
  let inT = false;
  let phonetic = 0;
  await readPart(zip, entry, budget, (p) => {
    p.on('opentag', (tag) => {
      const n = localName(tag.name);
      if (n === 'si') text = '';
      else if (n === 'rPh') phonetic++;
      else if (n === 't' && phonetic === 0 && !tag.isSelfClosing) inT = true;
    });
    p.on('text', (t) => {
      if (inT && text !== null) text += t;
    });
    p.on('cdata', (t) => {
      if (inT && text !== null) text += t;
    });
    p.on('closetag', (tag) => {
      const n = localName(tag.name);
      if (n === 't') inT = false;
      else if (n === 'rPh') phonetic--;
      else if (n === 'si') {
        strings.push(text ?? '');
        text = null;
      }
    });
  });
  return strings;
}

/** Which cell styles (`<cellXfs>` index) show a date. */
async function readDateStyles(zip: ZipFile, parts: Map<string, Entry>, budget: Budget, name: string | undefined): Promise<Set<number>> {
  const entry = name === undefined ? undefined : parts.get(name);
  const dates = new Set<number>();
  if (!entry) return dates;
  const codes = new Map<number, string>();
  let inCellXfs = false;
  let index = 0;
  await readPart(zip, entry, budget, (p) => {
    p.on('opentag', (tag) => {
      const n = localName(tag.name);
      if (n === 'numFmt') codes.set(Number(attr(tag, 'numFmtId')), attr(tag, 'formatCode') ?? '');
      else if (n === 'cellXfs') inCellXfs = true;
      else if (n === 'xf' && inCellXfs) {
        const id = Number(attr(tag, 'numFmtId') ?? 0);
        if (isDateFormat(id, codes.get(id))) dates.add(index);
        index++;
      }
    });
    p.on('closetag', (tag) => {
      if (localName(tag.name) === 'cellXfs') inCellXfs = false;
    });
  });
  return dates;
}

/** Streams the worksheet's `<row>`s into the builder, counting each `<c>` as it opens. */
async function readSheetPart(zip: ZipFile, entry: Entry, budget: Budget, builder: SheetBuilder, ctx: { shared: string[]; dateStyles: Set<number>; date1904: boolean }): Promise<void> {
  let rowNumber = 0;
  let cells: string[] = [];
  let column = 0;
  let cell: { type: string; style: number; value: string; inline: string } | null = null;
  let into: 'value' | 'inline' | null = null;
  let phonetic = 0;
  const cellText = (c: NonNullable<typeof cell>): string => {
    switch (c.type) {
      case 's': return ctx.shared[Number(c.value)] ?? '';
      case 'inlineStr': return c.inline;
      case 'str': return c.value;
      case 'b': return c.value === '1' || c.value === 'true' ? 'true' : 'false';
      case 'e': return '';
      case 'd': return c.value.slice(0, 10);
      default: {
        if (c.value.trim() === '') return '';
        const n = Number(c.value);
        if (!Number.isFinite(n)) return c.value;
        return ctx.dateStyles.has(c.style) ? serialToIsoDate(n, ctx.date1904) : String(n);
      }
    }
  };
  await readPart(zip, entry, budget, (p) => {
    p.on('opentag', (tag) => {
      switch (localName(tag.name)) {
        case 'row': {
          const r = Number(attr(tag, 'r'));
          rowNumber = Number.isInteger(r) && r > rowNumber && r <= MAX_SHEET_ROW ? r : rowNumber + 1;
          cells = [];
          column = 0;
          break;
        }
        case 'c':
          builder.countCells(1);
          column = columnOf(attr(tag, 'r')) ?? column + 1;
          cell = { type: attr(tag, 't') ?? 'n', style: Number(attr(tag, 's') ?? 0), value: '', inline: '' };
          break;
        case 'v':
          into = 'value';
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (cell && phonetic === 0) into = 'inline';
          break;
      }
    });
    const onText = (t: string) => {
      if (!cell) return;
      if (into === 'value') cell.value += t;
      else if (into === 'inline') cell.inline += t;
    };
    p.on('text', onText);
    p.on('cdata', onText);
    p.on('closetag', (tag) => {
      switch (localName(tag.name)) {
        case 'v':
        case 't':
          into = null;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c':
          if (cell && column >= 1 && column <= MAX_SHEET_COLUMN) cells[column - 1] = cellText(cell);
          cell = null;
          break;
        case 'row':
          // Rows the sheet leaves out are blank; only row 1 matters (the header).
          if (rowNumber > 1 && builder.headers === null) builder.add(1, []);
          builder.add(rowNumber, cells);
          break;
      }
    });
  });
  if (builder.headers === null) throw new SheetError('The file has no header row');
}

/**
 * Reads an uploaded CSV or XLSX file, counting as it reads (docs/security.md, "Imports: counted as
 * they are read").
 * @param limits rows, cells, unpacked bytes and ratio (default SHEET_LIMITS)
 * @returns the header names and the non-blank data rows (row numbers 1-based, the header row 1)
 * @throws SheetLimitError at the first limit crossed (the reader stops there); SheetError for an
 *   empty or unreadable file or one without a header row
 */
export async function readSheet(bytes: Buffer, limits: SheetLimits = SHEET_LIMITS): Promise<Sheet> {
  if (bytes.length === 0) throw new SheetError('The file is empty');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return readXlsx(bytes, limits);
  return readCsv(bytes, limits);
}
