/**
 * What a document or a photo may be (docs/job-files.md; docs/security.md promise 16): the type is decided
 * from the CONTENT with sniffType (file-type magic numbers), never from the client's name or
 * Content-Type. Plus the sanitising of client file names and a safe Content-Disposition.
 *
 * Documents: PDF; docx, xlsx, pptx; odt, ods; legacy doc, xls, ppt (an OLE compound file, which
 * file-type reports as 'cfb', accepted only when the name ends in .doc, .xls or .ppt, which picks
 * the Office type); and plain text: content with no magic number that is valid UTF-8 without
 * control characters (stored as text/plain, always downloaded as an attachment).
 * Photos: JPEG, PNG, WebP, HEIC/HEIF.
 */
import type { Readable } from 'node:stream';
import { sniffFile } from '../../../lib/sniff.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

export type FileKind = 'document' | 'photo';

export interface AcceptedType {
  mime: string;
  ext: string;
}

const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

const LEGACY_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

const PHOTO_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
};

/** Human list of what each kind accepts, for error messages and docs. */
export const ACCEPTED_TEXT: Record<FileKind, string> = {
  document: 'PDF, Word, Excel, PowerPoint, OpenDocument text or spreadsheet, or plain UTF-8 text',
  photo: 'JPEG, PNG, WebP or HEIC',
};

/** True when `data` reads as UTF-8 text without control characters other than tab, CR, LF, FF. */
export function isPlainText(data: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
}

/** Like isPlainText, over a stream read chunk by chunk (never the whole file in memory). */
export async function isPlainTextStream(body: Readable): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of body) {
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(decoder.decode(chunk as Buffer, { stream: true }))) {
        body.destroy();
        return false;
      }
    }
    decoder.decode();
    return true;
  } catch {
    body.destroy();
    return false;
  }
}

/**
 * The stored type of an upload, decided from its content.
 * @param file the spooled upload: its path (sniffed) and a stream of it (plain-text check)
 * @param filename the sanitised client name (only used to choose among legacy Office types)
 * @returns the accepted mime and extension, or undefined when the content is not allowed
 */
export async function acceptedType(kind: FileKind, file: { path: string; open(): Readable }, filename: string): Promise<AcceptedType | undefined> {
  const sniffed = await sniffFile(file.path);
  if (kind === 'photo') {
    if (!sniffed) return undefined;
    const mime = PHOTO_TYPES[sniffed.ext];
    if (!mime) return undefined;
    // HEIF brands (mif1, msf1) keep the mime file-type reports (image/heif...).
    return { mime: sniffed.ext === 'heic' ? sniffed.mime : mime, ext: sniffed.ext };
  }
  if (!sniffed) return (await isPlainTextStream(file.open())) ? { mime: 'text/plain; charset=utf-8', ext: 'txt' } : undefined;
  if (sniffed.ext === 'cfb') {
    const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
    const mime = LEGACY_OFFICE[ext];
    return mime ? { mime, ext } : undefined;
  }
  const mime = DOCUMENT_TYPES[sniffed.ext];
  return mime ? { mime, ext: sniffed.ext } : undefined;
}

/**
 * Bidirectional control characters (U+202A-U+202E embeddings and overrides, U+2066-U+2069
 * isolates, U+200E/U+200F marks, U+061C Arabic letter mark): a right-to-left override makes
 * `invoice\u202Efdp.exe` display as `invoiceexe.pdf`, so file names never keep them.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A client file name made safe for display: the last path segment, no control characters,
 * bidirectional controls (BIDI_CONTROLS) or quotes, whitespace collapsed, at most 200
 * characters; `fallback` when nothing remains.
 */
export function sanitiseFilename(name: string | undefined, fallback: string): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = last
    .replace(BIDI_CONTROLS, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F"<>|*?:]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const cut = cutGraphemes(clean, 200).trim();
  return cut.length > 0 ? cut : fallback;
}

/**
 * A Content-Disposition header value (RFC 6266): an ASCII fallback name plus the UTF-8 name, both
 * without bidirectional controls (names stored before they were stripped on upload included).
 * @param disposition 'attachment' or 'inline'
 */
export function contentDisposition(disposition: 'attachment' | 'inline', name: string): string {
  const filename = name.replace(BIDI_CONTROLS, '');
  const ascii = filename.replace(/[^\x20-\x7E]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
