/**
 * Decompression bombs (docs/security.md "Uploads"): a small file can declare an enormous image (a
 * 3.5 MB PNG of 30000 x 30000 pixels is 900 megapixels, gigabytes once decoded by a browser or a
 * thumbnailer). Every uploaded image (job photos, banners, certificate scans) has its dimensions
 * read from its header with the image-size library (the first 512 KiB of the file, never decoded)
 * and is refused above MAX_IMAGE_PIXELS, or when its header declares no usable size. The library is
 * loaded at the first image.
 */
import { AppError } from '../core/errors.ts';

/** Most pixels (width x height) an uploaded image may have: 50 megapixels (a 50 MP camera's photo). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Width and height in pixels from an image file's header, or undefined when it declares none. */
export async function imageDimensions(filePath: string): Promise<{ width: number; height: number } | undefined> {
  const { imageSizeFromFile } = await import('image-size/fromFile');
  try {
    const size = await imageSizeFromFile(filePath);
    // A HEIF or ICO may hold several images: the largest one counts.
    const all = [size, ...(size.images ?? [])];
    const largest = all.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    return Number.isFinite(largest.width) && Number.isFinite(largest.height) && largest.width > 0 && largest.height > 0
      ? { width: largest.width, height: largest.height }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What keeps an image out, if anything: more than MAX_IMAGE_PIXELS declared in its header, or no
 * usable size at all. Used by every way in through checkFile (src/http/file-checks.ts).
 * @param filePath the file on disk, already sniffed as an image
 * @returns undefined when within the limit; else the reason and the upload routes' 400 sentence
 */
export async function imageLimitProblem(filePath: string): Promise<{ reason: 'image_too_large' | 'image_without_size'; message: string } | undefined> {
  const size = await imageDimensions(filePath);
  if (!size) return { reason: 'image_without_size', message: 'The image header declares no size' };
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    return { reason: 'image_too_large', message: `The image is too large: ${size.width} x ${size.height} pixels (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)` };
  }
  return undefined;
}

/**
 * Refuses an image whose header declares more than MAX_IMAGE_PIXELS or no size at all.
 * @param filePath the spooled upload, already sniffed as an image
 * @throws AppError 400 "The image is too large: <w> x <h> pixels (at most 50 megapixels)" or
 *   "The image header declares no size"
 */
export async function assertImageWithinLimit(filePath: string): Promise<void> {
  const problem = await imageLimitProblem(filePath);
  if (problem) throw new AppError('bad_request', problem.message);
}
