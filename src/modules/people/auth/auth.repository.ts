/** SQL for accounts and tokens (spec 3, 5.1, 5.2). No rules here: see auth.service.ts. */
import { sql } from 'kysely';
import { PreparedQuery, type Params, type Value } from '../../../db/prepared.ts';
import type { TokenKind } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** The account row joined with its role, for login. */
export function findUserByEmail(db: DbOrTrx, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('agencies', 'agencies.id', 'users.agency_id')
    .select([
      'users.id', 'users.uuid', 'users.name', 'users.email', 'users.password_hash', 'users.status',
      'users.agency_id', 'roles.code as role_code', 'roles.name as role_name', 'agencies.suspended_at as agency_suspended_at',
    ])
    .where('users.email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Locks the account row until the transaction ends (serialises concurrent logins). */
export async function lockUser(db: DbOrTrx, userId: number): Promise<void> {
  await sql`select id from users where id = ${userId} for update`.execute(db);
}

/** Revokes every active token of a user; returns how many. */
export async function revokeUserTokens(
  db: DbOrTrx,
  userId: number,
  at: Date,
  reason: string,
  options: { kinds?: TokenKind[]; exceptTokenId?: number } = {},
): Promise<number> {
  let q = db
    .updateTable('auth_tokens')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (options.kinds) q = q.where('kind', 'in', options.kinds);
  if (options.exceptTokenId !== undefined) q = q.where('id', '!=', options.exceptTokenId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface NewTokenRow {
  userId: number;
  tokenHash: string;
  kind: TokenKind;
  rememberMe: boolean;
  createdAt: Date;
  expiresAt: Date;
  ip: string;
  userAgent: string | null;
  /** The login both tokens of one login share (revoked together); omitted for mobile tokens. */
  loginId?: string;
}

/** Inserts a token row (hash only) and returns its id. */
export async function insertToken(db: DbOrTrx, t: NewTokenRow): Promise<number> {
  const row = await db
    .insertInto('auth_tokens')
    .values({
      user_id: t.userId,
      token_hash: t.tokenHash,
      kind: t.kind,
      remember_me: t.rememberMe,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      last_used_at: t.createdAt,
      ip_address: t.ip,
      user_agent: t.userAgent === null ? null : cutGraphemes(t.userAgent, 400),
      login_id: t.loginId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The token row for a hash with its account, role and permission keys, or undefined.
 * One query per authenticated request, run as the named prepared statement TOKEN_WITH_IDENTITY:
 * PostgreSQL plans it once per connection instead of on every request (planning this join took
 * longer than running it).
 */
export async function findTokenWithIdentity(db: DbOrTrx, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await TOKEN_WITH_IDENTITY.run(db, 'one', { tokenHash });
  return row;
}

export type TokenRow = NonNullable<Awaited<ReturnType<ReturnType<typeof tokenQuery>['executeTakeFirst']>>>;

/** The token lookup of findTokenWithIdentity (src/db/prepared.ts). */
const TOKEN_WITH_IDENTITY = new PreparedQuery('find_token', (db, _shape: 'one', p: Params<{ tokenHash: string }>) => tokenQuery(db, p('tokenHash')));

/**
 * The lookups of several tokens in one query (the live streams' session checks, gathered):
 * each hash found, with the same row as findTokenWithIdentity.
 * @param tokenHashes SHA-256 hex of the tokens (distinct)
 */
export async function findTokensWithIdentity(db: DbOrTrx, tokenHashes: readonly string[]): Promise<Map<string, TokenRow>> {
  const found = new Map<string, TokenRow>();
  if (tokenHashes.length === 0) return found;
  const rows = await tokenSelect(db).select('t.token_hash').where('t.token_hash', 'in', [...tokenHashes]).execute();
  for (const { token_hash, ...row } of rows) found.set(token_hash, row);
  return found;
}

function tokenQuery(db: DbOrTrx, tokenHash: Value<string>) {
  return tokenSelect(db).where('t.token_hash', '=', tokenHash);
}

/** The token, its account, role, agency and permissions, without the condition. */
function tokenSelect(db: DbOrTrx) {
  return db
    .selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .leftJoin('agencies as ag', 'ag.id', 'u.agency_id')
    .select([
      't.id as token_id', 't.kind', 't.remember_me', 't.created_at', 't.expires_at', 't.last_used_at',
      't.revoked_at', 't.revoked_reason', 'u.id as user_id', 'u.uuid as user_uuid', 'u.name', 'u.email', 'u.status',
      'u.agency_id', 'u.branch_id', 'u.contractor_id', 'u.tenant_id', 'u.landlord_id', 'r.id as role_id',
      'r.code as role_code', 'r.name as role_name', 'r.level', 'ag.suspended_at as agency_suspended_at',
      sql<string[]>`array(select rp.permission_key from role_permissions rp where rp.role_id = r.id order by 1)`.as(
        'permissions',
      ),
    ]);
}

/** Records use of a session (for the idle rule). */
export async function touchToken(db: DbOrTrx, tokenId: number, at: Date): Promise<void> {
  await db.updateTable('auth_tokens').set({ last_used_at: at }).where('id', '=', tokenId).execute();
}

/** Revokes one token by id; returns true when it was active. */
export async function revokeToken(db: DbOrTrx, tokenId: number, at: Date, reason: string): Promise<boolean> {
  const r = await db
    .updateTable('auth_tokens')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Revokes a token and every other active token of the same login (the bearer token and the
 * session a login issued together); returns how many were active.
 */
export async function revokeLogin(db: DbOrTrx, tokenId: number, at: Date, reason: string): Promise<number> {
  const r = await db
    .updateTable('auth_tokens')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('id', '=', tokenId),
        eb('login_id', '=', eb.selectFrom('auth_tokens as same').select('same.login_id').where('same.id', '=', tokenId)),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Stamps the account's last login. */
export async function markLogin(db: DbOrTrx, userId: number, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', userId).execute();
}

/** The caller's account with its agency, branch and current token's kind and expiry (GET /api/auth/me). */
export function meRow(db: DbOrTrx, userId: number, tokenId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('agencies as a', 'a.id', 'u.agency_id')
    .leftJoin('branches as b', 'b.id', 'u.branch_id')
    .innerJoin('auth_tokens as t', (j) => j.on('t.id', '=', tokenId))
    .select(['u.uuid', 'a.uuid as agency_uuid', 'a.name as agency_name', 'b.uuid as branch_uuid', 'b.name as branch_name', 't.kind', 't.expires_at'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}
