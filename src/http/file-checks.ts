/**
 * One check for every file that comes in (docs/security.md "One rule for every way in"): an
 * upload form (job photos and documents, the link pages' photo, the banner, certificate scans) and
 * the attachments of a received e-mail all pass checkFile before a byte is stored:
 *
 * 1. not empty, and at most the way in's size limit;
 * 2. the type decided from the content (magic numbers, src/lib/sniff.ts), never the sender's name
 *    or Content-Type, and one of the types the way in accepts;
 * 3. an image (any accepted `image/*` type) at most MAX_IMAGE_PIXELS from its header, never
 *    decoded (src/http/image-limits.ts);
 * 4. the sender's file name cleaned (cleanFileName).
 *
 * Each way in decides what a refusal becomes: an upload answers 400 or 413 (fileCheckError), an
 * e-mail attachment is dropped with a note in the message. A refused file is stored nowhere.
 */
import type { Readable } from 'node:stream';
import { AppError } from '../core/errors.ts';
import { imageLimitProblem } from './image-limits.ts';
import { cutGraphemes } from '../lib/text-cut.ts';

/** A file waiting for its check: spooled to disk (src/http/upload-spool.ts). */
export interface CheckedFileSource {
  /** Size in bytes. */
  size: number;
  /** Path of the file on disk, for the type and image header. */
  path: string;
  /** A fresh stream of the content. */
  open(): Readable;
}

/** A type a way in accepts, decided from the content. */
export interface AcceptedFileType {
  mime: string;
  /** Canonical extension without the dot (the stored object's). */
  ext: string;
}

/** What one way in accepts. */
export interface FileRules {
  /** Largest file in bytes (Infinity when the multipart reader has limited it already). */
  maxBytes: number;
  /** The accepted type of the content, or undefined when it is not one (sniffs the bytes). */
  accept(file: CheckedFileSource, filename: string): Promise<AcceptedFileType | undefined>;
  /** The name when the sender's name cleans to nothing ("photo", "attachment"). */
  fallbackName: string;
}

/** Why a file was refused. */
export type FileRefusal = 'empty' | 'too_large' | 'unsupported_type' | 'image_too_large' | 'image_without_size';

/** The outcome of checkFile: the accepted type and the cleaned name, or the refusal with its sentence. */
export type FileVerdict =
  | { ok: true; type: AcceptedFileType; filename: string }
  | { ok: false; reason: FileRefusal; message: string; filename: string };

/**
 * Bidirectional control characters (U+202A-U+202E embeddings and overrides, U+2066-U+2069
 * isolates, U+200E/U+200F marks, U+061C Arabic letter mark): a right-to-left override makes
 * `invoice\u202Efdp.exe` display as `invoiceexe.pdf`, so file names never keep them.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A sender's file name made safe for display: the last path segment, no control characters,
 * bidirectional controls (BIDI_CONTROLS) or quotes, whitespace collapsed, no leading dots, at
 * most 200 characters (cut by grapheme); `fallback` when nothing remains.
 */
export function cleanFileName(name: string | undefined, fallback: string): string {
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
 * Checks one incoming file against a way in's rules (see the file comment); reads only the bytes
 * the type and the image header need.
 * @param clientName the name the sender gave (cleaned here)
 * @returns `{ ok: true, type, filename }`, or `{ ok: false, reason, message }` with a sentence for
 *   the sender (the image ones are the upload routes' 400 texts)
 */
export async function checkFile(file: CheckedFileSource, clientName: string | undefined, rules: FileRules): Promise<FileVerdict> {
  const filename = cleanFileName(clientName, rules.fallbackName);
  if (file.size === 0) return { ok: false, reason: 'empty', message: 'The file is empty', filename };
  if (file.size > rules.maxBytes) return { ok: false, reason: 'too_large', message: `The file is larger than ${mib(rules.maxBytes)}`, filename };
  const type = await rules.accept(file, filename);
  if (!type) return { ok: false, reason: 'unsupported_type', message: 'The file is not of an accepted type', filename };
  if (type.mime.startsWith('image/')) {
    const problem = await imageLimitProblem(file.path);
    if (problem) return { ok: false, reason: problem.reason, message: problem.message, filename };
  }
  return { ok: true, type, filename };
}

/**
 * The error an upload route answers for a refused file: 413 for `too_large` (the routes' "Request
 * body is too large"), else 400 with `messages[reason]` when given, else the verdict's sentence.
 */
export function fileCheckError(verdict: Extract<FileVerdict, { ok: false }>, messages: Partial<Record<FileRefusal, string>> = {}): AppError {
  if (verdict.reason === 'too_large') return new AppError('payload_too_large');
  return new AppError('bad_request', messages[verdict.reason] ?? verdict.message);
}

function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return `${Number.isInteger(m) ? m : m.toFixed(1)} MiB`;
}
