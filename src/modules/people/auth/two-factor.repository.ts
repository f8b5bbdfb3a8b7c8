/** SQL for second factors and sign-in challenges (docs/security.md "Two-factor sign-in"). No rules here: see two-factor.service.ts. */
import type { ChallengePurpose, TokenKind } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

/** The account row joined with its role and agency (as findUserByEmail), by id. */
export function findUserById(db: DbOrTrx, userId: number) {
  return db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('agencies', 'agencies.id', 'users.agency_id')
    .select([
      'users.id', 'users.uuid', 'users.name', 'users.email', 'users.password_hash', 'users.status',
      'users.agency_id', 'roles.code as role_code', 'roles.name as role_name', 'agencies.suspended_at as agency_suspended_at',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** What decides whether a sign-in needs a second factor: the factors held and the agency's policy. */
export async function factorState(db: DbOrTrx, userId: number) {
  // One statement (every sign-in runs it): three scalar subqueries instead of three queries.
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('user_totp').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null)).as('totp'),
      eb.selectFrom('user_passkeys').select((e) => e.fn.countAll<string>().as('n')).where('user_id', '=', userId).as('passkeys'),
      eb.selectFrom('users').innerJoin('agencies', 'agencies.id', 'users.agency_id').select('agencies.require_second_factor').where('users.id', '=', userId).as('agency_requires'),
    ])
    .executeTakeFirstOrThrow();
  return { totp: row.totp === true, passkeys: Number(row.passkeys ?? 0), agencyRequires: row.agency_requires === true };
}

/** The user's TOTP row (confirmed or pending), or undefined. */
export function findTotp(db: DbOrTrx, userId: number) {
  return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The TOTP rows after `afterUserId` by user id, at most `limit` (the backfill `auth.totp-secrets`). */
export function totpSecretsAfter(db: DbOrTrx, afterUserId: number, limit: number) {
  return db.selectFrom('user_totp').select(['user_id', 'secret']).where('user_id', '>', afterUserId).orderBy('user_id').limit(limit).execute();
}

/** How many TOTP rows there are (the backfill's total). */
export async function countTotpSecrets(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('user_totp').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Replaces a TOTP row's stored secret only (its state and last step unchanged). */
export async function setTotpSecret(db: DbOrTrx, userId: number, secret: string): Promise<void> {
  await db.updateTable('user_totp').set({ secret }).where('user_id', '=', userId).execute();
}

/** Stores a new pending TOTP secret, replacing any pending or confirmed one. */
export async function upsertTotp(db: DbOrTrx, userId: number, secret: string, at: Date, confirmed: boolean): Promise<void> {
  await db
    .insertInto('user_totp')
    .values({ user_id: userId, secret, confirmed_at: confirmed ? at : null, last_step: null, created_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, confirmed_at: confirmed ? at : null, last_step: null, created_at: at }))
    .execute();
}

/** Marks the TOTP secret confirmed at `at`, having accepted a code for `step`. */
export async function confirmTotp(db: DbOrTrx, userId: number, at: Date, step: number): Promise<void> {
  await db.updateTable('user_totp').set({ confirmed_at: at, last_step: step }).where('user_id', '=', userId).execute();
}

/**
 * Records that a code for `step` was used, only when it is later than the last one used; returns
 * false when `step` was already used (a replay), so two parallel uses of one code cannot both pass.
 */
export async function useTotpStep(db: DbOrTrx, userId: number, step: number): Promise<boolean> {
  const r = await db
    .updateTable('user_totp')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', String(step) as never)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Removes the TOTP secret; returns true when there was one. */
export async function deleteTotp(db: DbOrTrx, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Replaces every recovery code of a user with the given hashes. */
export async function replaceRecoveryCodes(db: DbOrTrx, userId: number, hashes: string[], at: Date): Promise<void> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length) {
    await db.insertInto('user_recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: at }))).execute();
  }
}

/** The unused recovery codes of a user (id and hash). */
export function unusedRecoveryCodes(db: DbOrTrx, userId: number) {
  return db.selectFrom('user_recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).orderBy('id').execute();
}

/** Marks a recovery code used; returns false when it was used already (a parallel use). */
export async function useRecoveryCode(db: DbOrTrx, id: number, at: Date): Promise<boolean> {
  const r = await db.updateTable('user_recovery_codes').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface NewChallenge {
  challengeHash: string;
  userId: number | null;
  purpose: ChallengePurpose;
  credential: TokenKind | null;
  rememberMe: boolean;
  webauthnChallenge: string | null;
  totpSecret: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Inserts a sign-in challenge. */
export async function insertChallenge(db: DbOrTrx, c: NewChallenge): Promise<void> {
  await db
    .insertInto('auth_challenges')
    .values({
      challenge_hash: c.challengeHash, user_id: c.userId, purpose: c.purpose, credential: c.credential, remember_me: c.rememberMe,
      webauthn_challenge: c.webauthnChallenge, totp_secret: c.totpSecret, created_at: c.createdAt, expires_at: c.expiresAt, used_at: null,
    })
    .execute();
}

/** The unused, unexpired challenge with this hash, or undefined. */
export function findChallenge(db: DbOrTrx, challengeHash: string, now: Date) {
  return db
    .selectFrom('auth_challenges')
    .selectAll()
    .where('challenge_hash', '=', challengeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The user's newest unused, unexpired challenge of a purpose (a passkey registration in progress). */
export function latestChallenge(db: DbOrTrx, userId: number, purpose: ChallengePurpose, now: Date) {
  return db
    .selectFrom('auth_challenges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Sets fields of a challenge (a WebAuthn challenge, a TOTP secret offered). */
export async function updateChallenge(db: DbOrTrx, id: number, set: { webauthn_challenge?: string; totp_secret?: string }): Promise<void> {
  await db.updateTable('auth_challenges').set(set).where('id', '=', id).execute();
}

/** Counts a wrong answer to a challenge; returns the attempts so far. */
export async function countChallengeAttempt(db: DbOrTrx, id: number): Promise<number> {
  const r = await db.updateTable('auth_challenges').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', id).returning('attempts').executeTakeFirst();
  return r?.attempts ?? 0;
}

/** Marks a challenge used; returns false when it was used already (single use under races). */
export async function useChallenge(db: DbOrTrx, id: number, at: Date): Promise<boolean> {
  const r = await db.updateTable('auth_challenges').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes spent and expired challenges older than `before`. */
export async function pruneChallenges(db: DbOrTrx, before: Date): Promise<void> {
  await db.deleteFrom('auth_challenges').where('expires_at', '<', before).execute();
}

/** The user's passkeys, oldest first. */
export function listPasskeys(db: DbOrTrx, userId: number) {
  return db.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** The passkey with this credential id, with its owner, or undefined. */
export function findPasskeyByCredential(db: DbOrTrx, credentialId: string) {
  return db.selectFrom('user_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** Inserts a passkey. */
export async function insertPasskey(
  db: DbOrTrx,
  p: { uuid: string; userId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string; at: Date },
): Promise<void> {
  await db
    .insertInto('user_passkeys')
    .values({
      uuid: p.uuid, user_id: p.userId, credential_id: p.credentialId, public_key: p.publicKey, counter: p.counter,
      transports: p.transports, name: p.name, created_at: p.at, last_used_at: null,
    })
    .execute();
}

/** Records a passkey's use and its new signature counter. */
export async function touchPasskey(db: DbOrTrx, id: number, counter: number, at: Date): Promise<void> {
  await db.updateTable('user_passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
}

/** Deletes one of a user's passkeys by uuid; returns true when it existed. */
export async function deletePasskey(db: DbOrTrx, userId: number, uuid: string): Promise<boolean> {
  const r = await db.deleteFrom('user_passkeys').where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Sets the agency's second-factor policy. */
export async function setAgencyPolicy(db: DbOrTrx, agencyId: number, required: boolean): Promise<void> {
  await db.updateTable('agencies').set({ require_second_factor: required }).where('id', '=', agencyId).execute();
}

/** The agency's second-factor policy. */
export async function agencyPolicy(db: DbOrTrx, agencyId: number): Promise<boolean> {
  const r = await db.selectFrom('agencies').select('require_second_factor').where('id', '=', agencyId).executeTakeFirst();
  return r?.require_second_factor === true;
}
