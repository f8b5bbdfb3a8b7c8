/**
 * SQL for single sign-on by OpenID Connect (docs/security.md "Single sign-on"): an agency's
 * provider settings, the pending sign-ins (state), and the accounts it matches or creates.
 * No rules here: see sso.service.ts.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

/** The agency's provider settings with its default role's code and default branch's uuid, or undefined. */
export function findSso(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('agency_sso as s')
    .leftJoin('roles as r', 'r.id', 's.default_role_id')
    .leftJoin('branches as b', 'b.id', 's.default_branch_id')
    .selectAll('s')
    .select(['r.code as default_role_code', 'b.uuid as default_branch_uuid'])
    .where('s.agency_id', '=', agencyId)
    .executeTakeFirst();
}

export type SsoRow = NonNullable<Awaited<ReturnType<typeof findSso>>>;

/** The agency of a uuid with its suspension and, when set up, its provider settings. */
export function findAgencySso(db: DbOrTrx, agencyUuid: string) {
  return db
    .selectFrom('agencies as a')
    .leftJoin('agency_sso as s', 's.agency_id', 'a.id')
    .select(['a.id as agency_id', 'a.uuid as agency_uuid', 'a.name as agency_name', 'a.suspended_at', 's.provider', 's.enabled'])
    .where('a.uuid', '=', agencyUuid)
    .executeTakeFirst();
}

/** The agency (uuid, name, provider) whose enabled single sign-on claims an e-mail domain, or undefined. */
export function findSsoByDomain(db: DbOrTrx, domain: string) {
  return db
    .selectFrom('agency_sso as s')
    .innerJoin('agencies as a', 'a.id', 's.agency_id')
    .select(['a.uuid as agency_uuid', 'a.name as agency_name', 's.provider'])
    .where('s.enabled', '=', true)
    .where('a.suspended_at', 'is', null)
    .where(sql<boolean>`${domain} = any(s.domains)`)
    .executeTakeFirst();
}

/** The domains of `domains` that another agency's single sign-on already claims. */
export async function domainsClaimedElsewhere(db: DbOrTrx, agencyId: number, domains: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('agency_sso')
    .select(sql<string>`unnest(domains)`.as('domain'))
    .where('agency_id', '!=', agencyId)
    .execute();
  const taken = new Set(rows.map((r) => r.domain));
  return domains.filter((d) => taken.has(d));
}

export interface SsoValues {
  provider: 'microsoft' | 'google' | 'other';
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string[];
  enabled: boolean;
  create_users: boolean;
  default_role_id: number | null;
  default_branch_id: number | null;
  require_for_staff: boolean;
}

/** Creates or replaces the agency's provider settings. */
export async function upsertSso(db: DbOrTrx, agencyId: number, v: SsoValues, at: Date): Promise<void> {
  await db
    .insertInto('agency_sso')
    .values({ agency_id: agencyId, ...v, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet({ ...v, updated_at: at }))
    .execute();
}

/** Removes the agency's provider settings; returns true when there were some. */
export async function deleteSso(db: DbOrTrx, agencyId: number): Promise<boolean> {
  const r = await db.deleteFrom('agency_sso').where('agency_id', '=', agencyId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A built-in staff role (admin or agent) by code, or a role of the agency by uuid-less code. */
export function findStaffRole(db: DbOrTrx, code: 'admin' | 'agent') {
  return db.selectFrom('roles').select(['id', 'code']).where('code', '=', code).where('agency_id', 'is', null).executeTakeFirst();
}

/** An open branch of the agency by uuid, or undefined. */
export function findBranch(db: DbOrTrx, agencyId: number, uuid: string) {
  return db
    .selectFrom('branches')
    .select(['id', 'uuid'])
    .where('uuid', '=', uuid)
    .where('agency_id', '=', agencyId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
}

export interface NewState {
  stateHash: string;
  agencyId: number;
  browserHash: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Stores a pending sign-in. */
export async function insertState(db: DbOrTrx, s: NewState): Promise<void> {
  await db
    .insertInto('sso_states')
    .values({
      state_hash: s.stateHash, agency_id: s.agencyId, browser_hash: s.browserHash, nonce: s.nonce, code_verifier: s.codeVerifier,
      return_to: s.returnTo, created_at: s.createdAt, expires_at: s.expiresAt,
    })
    .execute();
}

/**
 * Uses a pending sign-in up: marks it used if it was not, in one statement, so two callbacks with
 * the same state cannot both get it. Returns the row when this call used it, else undefined.
 */
export function takeState(db: DbOrTrx, stateHash: string, at: Date) {
  return db
    .updateTable('sso_states')
    .set({ used_at: at })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** True when a state was issued and already used (a replay). */
export async function stateWasUsed(db: DbOrTrx, stateHash: string): Promise<boolean> {
  const row = await db.selectFrom('sso_states').select('used_at').where('state_hash', '=', stateHash).executeTakeFirst();
  return row !== undefined && row.used_at !== null;
}

/** Deletes pending sign-ins that expired before `before`; returns how many. */
export async function purgeStates(db: DbOrTrx, before: Date): Promise<number> {
  const r = await db.deleteFrom('sso_states').where('expires_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * True when the account is staff of an agency that requires single sign-on for staff: an admin or
 * agent (built-in), or a custom role of the agency at the agent's level or above.
 */
export async function ssoRequiredFor(db: DbOrTrx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .innerJoin('agency_sso as s', 's.agency_id', 'u.agency_id')
    .select('u.id')
    .where('u.id', '=', userId)
    .where('s.enabled', '=', true)
    .where('s.require_for_staff', '=', true)
    .where((eb) => eb.or([eb('r.code', 'in', ['admin', 'agent']), eb.and([eb('r.agency_id', 'is not', null), eb('r.level', '>=', 50)])]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts an account created by single sign-on; returns its id. */
export async function insertUser(
  db: DbOrTrx,
  u: { uuid: string; agencyId: number; branchId: number | null; roleId: number; name: string; email: string; passwordHash: string; at: Date },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      uuid: u.uuid, agency_id: u.agencyId, branch_id: u.branchId, role_id: u.roleId, contractor_id: null, tenant_id: null,
      name: u.name, email: u.email, password_hash: u.passwordHash, status: 'active', created_at: u.at, updated_at: u.at, invited_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks an invited account active (its e-mail was verified by the agency's provider). */
export async function activateInvited(db: DbOrTrx, userId: number, at: Date): Promise<void> {
  await db.updateTable('users').set({ status: 'active', invited_at: null, updated_at: at }).where('id', '=', userId).where('status', '=', 'invited').execute();
}
