/**
 * Cheap credentials for the fuzz tier: bearer and CSRF tokens written straight into the database
 * (the same hashes the service stores), so a run spends no time on argon2 logins and can re-issue
 * an actor's token after a request revoked it.
 */
import { hashToken, newToken } from '../../src/lib/crypto.ts';
import type { TestApp } from '../helpers/app.ts';

/** Issues a 90-day login token for a user; returns the bearer token and its row id. */
export async function mintBearer(t: TestApp, userId: number): Promise<{ token: string; tokenId: number }> {
  const token = newToken();
  const now = t.clock.now();
  const row = await t.db
    .insertInto('auth_tokens')
    .values({ user_id: userId, token_hash: hashToken(token), kind: 'login', created_at: now, expires_at: new Date(now.getTime() + 90 * 86_400_000), last_used_at: now, revoked_at: null, revoked_reason: null, ip_address: null, user_agent: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, tokenId: row.id };
}

/** Issues a single-use CSRF token bound to a bearer token row. */
export async function mintCsrf(t: TestApp, tokenId: number): Promise<string> {
  const token = newToken();
  const now = t.clock.now();
  await t.db.insertInto('csrf_tokens').values({ auth_token_id: tokenId, token_hash: hashToken(token), created_at: now, expires_at: new Date(now.getTime() + 3_600_000), used_at: null }).execute();
  return token;
}
