/**
 * Signed approval links (docs/landlords.md "Signed links"). A link token is
 * `<nonce>.<signature>`: the nonce (32 hex) names the link row; the signature is HMAC-SHA256 over
 * `approval-link.v1.<nonce>.<approval uuid>.<landlord uuid>.<expiry, Unix seconds>` with the
 * server's key (kept in `link_signing_keys`, generated once). The server recomputes the signature
 * from the link row's own approval, landlord and expiry, so a changed token, or a genuine nonce
 * presented with a signature made for another approval, landlord or expiry, is refused. The row
 * makes the link single-use (consumed in the answer's transaction) and revocable. The token stays
 * under the router's 100-character path parameter limit (76 characters).
 */
import { linkSigningKey } from '../../../core/link-keys.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { hmacSign, hmacVerify } from '../../../lib/crypto.ts';
import * as repo from './approvals.repository.ts';

const KEY_NAME = 'approval-links';
const PREFIX = 'approval-link.v1.';

/** What a link is scoped to (signed, not carried: the row holds it). */
export interface LinkPayload {
  /** approval uuid */
  a: string;
  /** landlord uuid */
  l: string;
  /** nonce of the link row */
  n: string;
  /** expiry, Unix seconds */
  e: number;
}

/** Why a link is refused, each with its own page. */
export type LinkRefusal = 'invalid' | 'expired' | 'used' | 'revoked';

/** The server's signing key (created on first use). */
export function linkKey(db: DbOrTrx, now: Date): Promise<string> {
  return linkSigningKey(db, KEY_NAME, now);
}

/** Signs a link's scope into its token. */
export function signLink(key: string, p: LinkPayload): string {
  return `${p.n}.${hmacSign(key, `${PREFIX}${p.n}.${p.a}.${p.l}.${p.e}`)}`;
}

const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/**
 * The link row a token stands for, or why it is refused (invalid: malformed, unknown, or a
 * signature that does not match the row's scope; then revoked, used, expired).
 * @returns { link } or { refusal }
 */
export async function checkLink(db: DbOrTrx, key: string, token: string, now: Date) {
  const m = TOKEN.exec(token);
  if (!m) return { refusal: 'invalid' as const };
  const [, nonce, sig] = m as unknown as [string, string, string];
  const link = await repo.findLinkByNonce(db, nonce);
  if (!link) return { refusal: 'invalid' as const };
  const e = Math.floor(new Date(link.expires_at).getTime() / 1000);
  if (!hmacVerify(key, `${PREFIX}${nonce}.${link.approval_uuid}.${link.landlord_uuid}.${e}`, sig)) return { refusal: 'invalid' as const };
  if (link.revoked_at !== null) return { refusal: 'revoked' as const };
  if (link.used_at !== null) return { refusal: 'used' as const };
  if (new Date(link.expires_at).getTime() <= now.getTime()) return { refusal: 'expired' as const };
  return { link };
}
