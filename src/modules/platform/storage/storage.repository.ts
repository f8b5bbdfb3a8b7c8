/**
 * The storage keys the database refers to (job documents and photos, including soft-deleted
 * ones whose bytes stay as evidence; dashboard banners; certificate documents; archived history
 * months, docs/operations.md "History partitions and retention"). All SQL of the
 * storage module.
 */
import type { DbOrTrx } from '../../../db/types.ts';

/**
 * Which of `keys` some record refers to.
 * @returns the referenced subset
 */
export async function referencedKeys(db: DbOrTrx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const [files, banners, certs, archives] = await Promise.all([
    db.selectFrom('job_files').select('storage_key as key').where('storage_key', 'in', keys).execute(),
    db.selectFrom('user_appearance').select('banner_key as key').where('banner_key', 'in', keys).execute(),
    db.selectFrom('contractor_certifications').select('file_key as key').where('file_key', 'in', keys).execute(),
    db.selectFrom('history_archives').select('storage_key as key').where('storage_key', 'in', keys).execute(),
  ]);
  return new Set([...files, ...banners, ...certs, ...archives].map((r) => r.key).filter((k): k is string => k !== null));
}

/** Every stored key with its recorded SHA-256 (null when none was recorded), sorted by key. */
export async function recordedFiles(db: DbOrTrx): Promise<Array<{ key: string; sha256: string | null }>> {
  const [files, banners, certs, archives] = await Promise.all([
    db.selectFrom('job_files').select(['storage_key as key', 'sha256']).execute(),
    db.selectFrom('user_appearance').select(['banner_key as key', 'banner_sha256 as sha256']).where('banner_key', 'is not', null).execute(),
    db.selectFrom('contractor_certifications').select(['file_key as key', 'file_sha256 as sha256']).where('file_key', 'is not', null).execute(),
    db.selectFrom('history_archives').select(['storage_key as key', 'sha256']).execute(),
  ]);
  return [...files, ...banners, ...certs, ...archives]
    .filter((r): r is { key: string; sha256: string | null } => r.key !== null)
    .map((r) => ({ key: r.key, sha256: r.sha256 ? r.sha256.trim() : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
