/**
 * Signed visit links (docs/tenant-reporting.md "The tenant's link"), made like the survey links
 * (survey-links.ts). A token is `<nonce>.<signature>`: the nonce (32 hex) names the link row; the
 * signature is HMAC-SHA256 over `visit-link.v1.<nonce>.<link uuid>.<job uuid>.<tenant uuid>.<expiry,
 * Unix seconds>` with the server's key for visit links (kept in `link_signing_keys`). The server
 * recomputes it from the row, so a changed token or one signed for another job, tenant or expiry
 * is refused. The link is scoped to one job and its tenant, acts once (used_at) and expires.
 */
import { randomBytes } from 'node:crypto';
import type { DbOrTrx } from '../../../db/types.ts';
import { hmacSign, hmacVerify } from '../../../lib/crypto.ts';
import { linkSigningKey } from '../../../core/link-keys.ts';
import * as repo from './visit-links.repository.ts';

const KEY_NAME = 'visit-links';
const PREFIX = 'visit-link.v1.';

/** The server's visit-link signing key (created on first use). */
export function visitLinkKey(db: DbOrTrx, now: Date): Promise<string> {
  return linkSigningKey(db, KEY_NAME, now);
}

/** A fresh nonce for a link row. */
export function newVisitNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The token of a visit link. */
export function signVisitLink(key: string, s: { nonce: string; linkUuid: string; jobUuid: string; tenantUuid: string; expiresAt: Date }): string {
  const e = Math.floor(s.expiresAt.getTime() / 1000);
  return `${s.nonce}.${hmacSign(key, `${PREFIX}${s.nonce}.${s.linkUuid}.${s.jobUuid}.${s.tenantUuid}.${e}`)}`;
}

/** Why a visit link is refused. */
export type VisitLinkRefusal = 'invalid' | 'expired' | 'used';

const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/**
 * The link a token stands for, or why it is refused: invalid (malformed, unknown, a signature
 * that does not match the row's scope, or the job no longer the tenant's), then used (acted on,
 * replaced by a newer link or ended by an erasure), then expired.
 */
export async function checkVisitLink(db: DbOrTrx, key: string, token: string, now: Date) {
  const m = TOKEN.exec(token);
  if (!m) return { refusal: 'invalid' as const };
  const [, nonce, sig] = m as unknown as [string, string, string];
  const row = await repo.findVisitLinkByNonce(db, nonce);
  if (!row) return { refusal: 'invalid' as const };
  const e = Math.floor(new Date(row.expires_at).getTime() / 1000);
  if (!hmacVerify(key, `${PREFIX}${nonce}.${row.uuid}.${row.job_uuid}.${row.tenant_uuid}.${e}`, sig)) return { refusal: 'invalid' as const };
  if (row.deleted_at !== null || row.job_tenant_id !== row.tenant_id) return { refusal: 'invalid' as const };
  if (row.used_at !== null) return { refusal: 'used' as const };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { refusal: 'expired' as const };
  return { row };
}
