/**
 * Signed works-order and quote links (docs/works-orders.md "Signed links"). A token is
 * `<nonce>.<signature>`: the nonce (32 hex) names the link row; the signature is HMAC-SHA256 over
 * `works-order-link.v1.<nonce>.<purpose>.<job uuid>.<contractor uuid>.<expiry, Unix seconds>` with
 * the cluster's key (`link_signing_keys`, name `works-order-links`). The server recomputes the
 * signature from the row's own job, contractor, purpose and expiry, so a changed token, or a
 * genuine nonce with a signature made for another job or contractor, is refused as invalid. The
 * row makes the link revocable and, where its answer is final, single-use.
 */
import type { DbOrTrx } from '../../../db/types.ts';
import { hmacSign, hmacVerify } from '../../../lib/crypto.ts';
import { linkSigningKey } from '../../../core/link-keys.ts';
import * as repo from './works-orders.repository.ts';

const KEY_NAME = 'works-order-links';
const PREFIX = 'works-order-link.v1.';

/** What a link is scoped to (signed, not carried: the row holds it). */
export interface LinkScope {
  nonce: string;
  purpose: repo.LinkPurpose;
  jobUuid: string;
  contractorUuid: string;
  /** Unix seconds */
  expires: number;
}

/** Why a link is refused, each with its own page. */
export type LinkRefusal = 'invalid' | 'expired' | 'used' | 'revoked';

/** The cluster's key for these links (created on first use). */
export function worksOrderKey(db: DbOrTrx, now: Date): Promise<string> {
  return linkSigningKey(db, KEY_NAME, now);
}

const message = (s: LinkScope) => `${PREFIX}${s.nonce}.${s.purpose}.${s.jobUuid}.${s.contractorUuid}.${s.expires}`;

/** Signs a link's scope into its token (76 characters). */
export function signWorksOrderLink(key: string, s: LinkScope): string {
  return `${s.nonce}.${hmacSign(key, message(s))}`;
}

/** The token of a link row. */
export function tokenOf(key: string, row: { nonce: string; purpose: repo.LinkPurpose; job_uuid: string; contractor_uuid: string; expires_at: Date | string }): string {
  return signWorksOrderLink(key, { nonce: row.nonce, purpose: row.purpose, jobUuid: row.job_uuid, contractorUuid: row.contractor_uuid, expires: Math.floor(new Date(row.expires_at).getTime() / 1000) });
}

const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/**
 * The link row a token stands for, or why it is refused: invalid (malformed, unknown, a signature
 * that does not match the row's scope, a deleted job), then revoked (by the agent, or the job now
 * given to another contractor), used, expired.
 */
export async function checkWorksOrderLink(db: DbOrTrx, key: string, token: string, now: Date): Promise<{ link: repo.LinkRow; refusal?: undefined } | { refusal: LinkRefusal; link?: undefined }> {
  const m = TOKEN.exec(token);
  if (!m) return { refusal: 'invalid' };
  const [, nonce, sig] = m as unknown as [string, string, string];
  const link = await repo.findLinkByNonce(db, nonce);
  if (!link) return { refusal: 'invalid' };
  const scope: LinkScope = { nonce, purpose: link.purpose, jobUuid: link.job_uuid, contractorUuid: link.contractor_uuid, expires: Math.floor(new Date(link.expires_at).getTime() / 1000) };
  if (!hmacVerify(key, message(scope), sig)) return { refusal: 'invalid' };
  if (link.job_deleted_at !== null) return { refusal: 'revoked' };
  if (link.revoked_at !== null) return { refusal: 'revoked' };
  if (link.used_at !== null) return { refusal: 'used' };
  if (new Date(link.expires_at).getTime() <= now.getTime()) return { refusal: 'expired' };
  return { link };
}
