/**
 * Dashboard appearance of the caller (spec 2.5a, 4.14; docs/appearance.md): background colour or
 * preset, and a banner image (PNG, JPEG or WebP decided by its content, at most
 * config.uploads.bannerMaxBytes) kept in the FileStore with its size, SHA-256 and type.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import type { SpooledFile } from '../../../http/upload-spool.ts';
import { checkFile, fileCheckError, type AcceptedFileType, type CheckedFileSource } from '../../../http/file-checks.ts';
import { sniffFile } from '../../../lib/sniff.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './appearance.repository.ts';
import { BANNER_PATH, type AppearanceBody } from './appearance.schemas.ts';

/** Banner types accepted, by sniffed MIME type. */
export const BANNER_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** The top-level response body for a row (or none). */
function toBody(row: repo.AppearanceRow | undefined, message: string): AppearanceBody {
  const hasBanner = row?.banner_key != null;
  return {
    success: true,
    message,
    dashboard_bg_custom: row?.dashboard_bg_custom ?? 'default',
    dashboard_banner_path: hasBanner ? BANNER_PATH : null,
    banner: hasBanner
      ? { mime: row.banner_mime!, size_bytes: row.banner_size!, sha256: row.banner_sha256!, uploaded_at: new Date(row.banner_uploaded_at!).toISOString() }
      : null,
  };
}

/** GET /api/users/appearance: the caller's settings (defaults when never set). */
export async function readAppearance(deps: AppDeps, auth: AuthContext): Promise<AppearanceBody> {
  return toBody(await repo.findAppearance(deps.db, auth.userId), 'Appearance retrieved');
}

/**
 * GET /api/users/appearance?action=banner: the stored banner image.
 * @returns { key: storage key, mime, sha256 } (the route streams it with sendStoredFile, which
 *   answers 404 "Banner not found" when the file is gone)
 * @throws 404 "Banner not found" when none is set
 */
export async function readBanner(deps: AppDeps, auth: AuthContext): Promise<{ key: string; mime: string; sha256: string }> {
  const row = await repo.findAppearance(deps.db, auth.userId);
  if (!row?.banner_key || !row.banner_mime || !row.banner_sha256) throw notFound('Banner');
  return { key: row.banner_key, mime: row.banner_mime, sha256: row.banner_sha256 };
}

/**
 * PUT /api/users/appearance: sets the background (`#RRGGBB`, stored lower-case, or a preset;
 * null resets to default).
 */
export async function updateAppearance(deps: AppDeps, auth: AuthContext, actor: Actor, bg: string | null): Promise<AppearanceBody> {
  const now = deps.clock.now();
  const value = bg === null ? null : bg.startsWith('#') ? bg.toLowerCase() : bg;
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveAppearance(trx, auth.userId, { dashboard_bg_custom: value, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'appearance.update', resourceType: 'user', resourceId: auth.userId });
  });
  return toBody(await repo.findAppearance(deps.db, auth.userId), 'Appearance updated');
}

/** A banner's type from its bytes: PNG, JPEG or WebP. */
async function acceptBanner(file: CheckedFileSource): Promise<AcceptedFileType | undefined> {
  const type = await sniffFile(file.path);
  return type && BANNER_TYPES.has(type.mime) ? type : undefined;
}

/**
 * POST /api/users/appearance/banner: stores the spooled upload as the caller's banner (streamed
 * to the FileStore; the row only after the object is stored), replacing (and deleting) an
 * earlier one.
 * @throws 400 "The banner must be a PNG, JPEG or WebP image" when the content is anything else, or
 *   an image above 50 megapixels (src/http/image-limits.ts);
 *   503 when the file store is down (nothing changed)
 */
export async function saveBanner(deps: AppDeps, auth: AuthContext, actor: Actor, file: SpooledFile): Promise<AppearanceBody> {
  // The one check of every way in (src/http/file-checks.ts); the multipart reader limited the size.
  const verdict = await checkFile(file, undefined, { maxBytes: Number.POSITIVE_INFINITY, fallbackName: 'banner', accept: acceptBanner });
  const wrongType = 'The banner must be a PNG, JPEG or WebP image';
  if (!verdict.ok) throw fileCheckError(verdict, { empty: wrongType, unsupported_type: wrongType });
  const { type } = verdict;
  const previous = await repo.findAppearance(deps.db, auth.userId);
  const stored = await deps.files.putStream(file.open(), type.ext);
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await repo.saveAppearance(trx, auth.userId, {
        banner_key: stored.key, banner_size: stored.size, banner_sha256: stored.sha256, banner_mime: type.mime, banner_uploaded_at: now, updated_at: now,
      });
      await recordActivity(trx, actor, now, {
        action: 'appearance.banner_upload', resourceType: 'user', resourceId: auth.userId, details: { mime: type.mime, size: stored.size, sha256: stored.sha256 },
      });
    });
  } catch (err) {
    await deps.files.delete(stored.key).catch(() => undefined);
    throw err;
  }
  if (previous?.banner_key) await deps.files.delete(previous.banner_key).catch(() => undefined);
  return toBody(await repo.findAppearance(deps.db, auth.userId), 'Banner uploaded');
}

/**
 * DELETE /api/users/appearance/banner: removes the caller's banner (row fields and file).
 * @throws 404 "Banner not found" when none is set
 */
export async function deleteBanner(deps: AppDeps, auth: AuthContext, actor: Actor): Promise<AppearanceBody> {
  const row = await repo.findAppearance(deps.db, auth.userId);
  if (!row?.banner_key) throw notFound('Banner');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveAppearance(trx, auth.userId, {
      banner_key: null, banner_size: null, banner_sha256: null, banner_mime: null, banner_uploaded_at: null, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'appearance.banner_delete', resourceType: 'user', resourceId: auth.userId });
  });
  // A store that is down leaves an orphan the orphan-cleanup task removes later.
  await deps.files.delete(row.banner_key).catch(() => undefined);
  return toBody(await repo.findAppearance(deps.db, auth.userId), 'Banner removed');
}
