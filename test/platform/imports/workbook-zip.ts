/**
 * Builds XLSX workbooks part by part for the import limit tests (archiver, the project's ZIP
 * writer): a minimal valid workbook whose first sheet's XML is given as a string or generated as a
 * stream, so a sheet of hundreds of MiB is packed without being held in memory.
 */
import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Properties" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** An inline-string cell. */
export const cell = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;

/** The sheet XML of `rows` (each a list of cell texts), header first. */
export function sheetXml(rows: string[][]): string {
  return SHEET_HEAD + rows.map((r) => `<row>${r.map(cell).join('')}</row>`).join('') + SHEET_TAIL;
}

/** A sheet stream: the header row, then `row` repeated `times` (about `row.length * times` bytes). */
export function repeatedSheet(header: string[], row: string, times: number): Readable {
  const head = SHEET_HEAD + `<row>${header.map(cell).join('')}</row>`;
  const block = row.repeat(1000);
  return Readable.from((function* () {
    yield head;
    for (let i = 0; i < times; i += 1000) yield i + 1000 <= times ? block : row.repeat(times - i);
    yield SHEET_TAIL;
  })());
}

/** A workbook whose first sheet is `sheet` (XML text or a stream of it), packed at deflate level 9. */
export async function workbook(sheet: string | Readable): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  zip.append(CONTENT_TYPES, { name: '[Content_Types].xml' });
  zip.append(ROOT_RELS, { name: '_rels/.rels' });
  zip.append(WORKBOOK, { name: 'xl/workbook.xml' });
  zip.append(WORKBOOK_RELS, { name: 'xl/_rels/workbook.xml.rels' });
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

/**
 * The workbook with the sheet's sizes in the central directory rewritten to `declared` bytes: a
 * ZIP that lies about how much it unpacks to.
 */
export function withDeclaredSheetSize(zip: Buffer, declared: number): Buffer {
  const out = Buffer.from(zip);
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  for (let i = out.length - 22; i >= 0; i--) {
    if (out.readUInt32LE(i) !== 0x02014b50) continue; // central directory file header
    const nameLength = out.readUInt16LE(i + 28);
    if (out.subarray(i + 46, i + 46 + nameLength).equals(name)) {
      out.writeUInt32LE(declared, i + 24);
      return out;
    }
  }
  throw new Error('sheet entry not found');
}
