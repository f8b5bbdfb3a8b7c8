/**
 * Reply addresses (docs/conversations.md "Reply by e-mail"): every conversation e-mail carries a
 * Reply-To unique to its thread and recipient, `reply+<thread id>.<person>.<signature>@<domain>`,
 * where person is `u<user id>`, `t<tenant id>`, `c<contractor id>` or `l<landlord id>` and the
 * signature is the first 24 hex characters (96 bits) of HMAC-SHA256 over `reply:<thread>.<person>`
 * under the cluster's `conversation_reply` key (kept in link_signing_keys, created once). Lower-case
 * hex survives mail systems that change the case of local parts; nothing in the address can be
 * guessed or changed without the key.
 */
import { createHmac } from 'node:crypto';
import type { DbOrTrx } from '../../../db/types.ts';
import { safeEqual } from '../../../lib/crypto.ts';
import { linkSigningKey } from '../../../core/link-keys.ts';

const KEY_NAME = 'conversation_reply';
const SIG_HEX = 24;

/** The cluster's reply-address key (created on first use). */
export function replyKey(db: DbOrTrx, now: Date): Promise<string> {
  return linkSigningKey(db, KEY_NAME, now);
}

function signature(key: string, threadId: number, person: string): string {
  return createHmac('sha256', key).update(`reply:${threadId}.${person}`, 'utf8').digest('hex').slice(0, SIG_HEX);
}

/** The reply address of one recipient of one thread. @param person u12, t3, c4 or l5 */
export function replyAddress(key: string, domain: string, threadId: number, person: string): string {
  return `reply+${threadId}.${person}.${signature(key, threadId, person)}@${domain}`;
}

/** What an address is to the reply handling. */
export type ParsedReplyAddress =
  | { kind: 'reply'; threadId: number; person: string; address: string }
  | { kind: 'forged'; address: string }
  | { kind: 'other'; address: string };

const REPLY_RE = /^reply\+(\d{1,10})\.([utcl]\d{1,10})\.([0-9a-f]+)@(.+)$/;

/**
 * Reads an address: `reply` with its thread and person when the signature holds, `forged` when it
 * has the shape of a reply address at our domain but a wrong signature (or a changed part),
 * `other` for anything else (another domain, another local part).
 */
export function parseReplyAddress(key: string, domain: string, address: string): ParsedReplyAddress {
  const a = address.trim().toLowerCase();
  if (!a.endsWith(`@${domain}`)) return { kind: 'other', address: a };
  if (!a.startsWith('reply+')) return { kind: 'other', address: a };
  const m = REPLY_RE.exec(a);
  if (!m || m[4] !== domain) return { kind: 'forged', address: a };
  const threadId = Number(m[1]);
  const person = m[2]!;
  if (threadId < 1 || threadId > 2_147_483_647 || !safeEqual(signature(key, threadId, person), m[3]!)) return { kind: 'forged', address: a };
  return { kind: 'reply', threadId, person, address: a };
}
