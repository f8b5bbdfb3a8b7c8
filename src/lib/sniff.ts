/**
 * Decides a file's type from its content (never the client's name or Content-Type), through the
 * file-type library (magic numbers), loaded at the first file. docs/security.md promise 16.
 */

export interface SniffedType {
  /** MIME type, for example image/png. */
  mime: string;
  /** Canonical extension without the dot, for example png. */
  ext: string;
}

/** The detected type of `data`, or undefined when unknown. */
export async function sniffType(data: Buffer | Uint8Array): Promise<SniffedType | undefined> {
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(data);
  return found ? { mime: found.mime, ext: found.ext } : undefined;
}

/** The detected type of the file at `filePath` (reads only the bytes it needs), or undefined. */
export async function sniffFile(filePath: string): Promise<SniffedType | undefined> {
  const { fileTypeFromFile } = await import('file-type');
  const found = await fileTypeFromFile(filePath);
  return found ? { mime: found.mime, ext: found.ext } : undefined;
}
