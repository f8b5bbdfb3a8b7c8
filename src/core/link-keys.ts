/**
 * The server's signing keys for links to people without accounts (a landlord's approval link, a
 * contractor's works-order link, a tenant's survey link; docs/landlords.md "Signed links"): one
 * key per kind of link, created with 32 random bytes on first use and shared by every instance
 * of the cluster. Each module signs and checks its own tokens with its key.
 */
import { randomBytes } from 'node:crypto';
import type { DbOrTrx } from '../db/types.ts';
import { signingKey } from './link-keys.repository.ts';

/**
 * The signing key of one kind of link.
 * @param name the kind, e.g. `approval-links`, `works-order-links`
 * @param now creation time of a new key
 * @returns the key (43 base64url characters)
 */
export function linkSigningKey(db: DbOrTrx, name: string, now: Date): Promise<string> {
  return signingKey(db, name, randomBytes(32).toString('base64url'), now);
}
