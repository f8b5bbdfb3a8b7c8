/**
 * Signed survey links (docs/tenant-reporting.md "Satisfaction surveys"), made like the landlord
 * approval links (docs/landlords.md "Signed links"). A token is `<nonce>.<signature>`: the nonce
 * (32 hex) names the survey row; the signature is HMAC-SHA256 over
 * `survey-link.v1.<nonce>.<survey uuid>.<tenant uuid>.<expiry, Unix seconds>` with the server's
 * key for survey links (kept in `link_signing_keys`). The server recomputes it from the row, so a
 * changed token or one signed for another survey, tenant or expiry is refused. The link is scoped
 * to one job's survey and its tenant, answers once (answered_at) and expires.
 */
import { randomBytes } from 'node:crypto';
import { linkSigningKey } from '../../../core/link-keys.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { hmacSign, hmacVerify } from '../../../lib/crypto.ts';
import * as repo from './reporting.repository.ts';

const KEY_NAME = 'survey-links';
const PREFIX = 'survey-link.v1.';

/** The server's survey signing key (created on first use). */
export function surveyKey(db: DbOrTrx, now: Date): Promise<string> {
  return linkSigningKey(db, KEY_NAME, now);
}

/** A fresh nonce for a survey row. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The token of a survey link. */
export function signSurvey(key: string, s: { nonce: string; surveyUuid: string; tenantUuid: string; expiresAt: Date }): string {
  const e = Math.floor(s.expiresAt.getTime() / 1000);
  return `${s.nonce}.${hmacSign(key, `${PREFIX}${s.nonce}.${s.surveyUuid}.${s.tenantUuid}.${e}`)}`;
}

/** Why a survey link is refused. */
export type SurveyRefusal = 'invalid' | 'expired' | 'used';

const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/**
 * The survey a token stands for, or why it is refused: invalid (malformed, unknown, or a
 * signature that does not match the row's scope), then used (answered), then expired.
 */
export async function checkSurveyLink(db: DbOrTrx, key: string, token: string, now: Date) {
  const m = TOKEN.exec(token);
  if (!m) return { refusal: 'invalid' as const };
  const [, nonce, sig] = m as unknown as [string, string, string];
  const row = await repo.findSurveyByNonce(db, nonce);
  if (!row) return { refusal: 'invalid' as const };
  const e = Math.floor(new Date(row.expires_at).getTime() / 1000);
  if (!hmacVerify(key, `${PREFIX}${nonce}.${row.uuid}.${row.tenant_uuid}.${e}`, sig)) return { refusal: 'invalid' as const };
  if (row.answered_at !== null) return { refusal: 'used' as const };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { refusal: 'expired' as const };
  return { row };
}
