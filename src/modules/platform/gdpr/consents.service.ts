/**
 * GDPR consents (docs/gdpr.md): a person (a tenant, or a user account of the agency) gives
 * consent for one purpose from a source at a time, and may withdraw it later. At most one consent
 * per person and purpose is in force; recording it again returns the one in force.
 */
import { isoOrNull as iso } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { readAgency, sameAgency } from '../../../core/agency-scope.ts';
import { getTenantRow } from '../../people/tenants/index.ts';
import { normalisePhone } from '../../messaging/sms/index.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import * as repo from './consents.repository.ts';
import type { ConsentDto, CreateConsentInput, ListConsentsQuery } from './consents.schemas.ts';


/** Wire shape of a consent row. */
export function toConsentDto(r: repo.ConsentRow): ConsentDto {
  return {
    uuid: r.uuid,
    tenant_uuid: r.tenant_uuid,
    user_uuid: r.user_uuid,
    purpose: r.purpose,
    source: r.source,
    given_at: new Date(r.given_at).toISOString(),
    withdrawn_at: iso(r.withdrawn_at),
    withdrawn_source: r.withdrawn_source,
    active: r.withdrawn_at === null,
    recorded_by: r.recorded_by,
    created_at: new Date(r.created_at).toISOString(),
  };
}

interface Person {
  agencyId: number;
  tenantId: number | null;
  userId: number | null;
}

/** A user account of an agency the caller may see. @throws 404 'User not found' */
async function agencyUser(deps: AppDeps, auth: AuthContext, uuid: string): Promise<{ id: number; agency_id: number }> {
  const u = await repo.userAgency(deps.db, uuid);
  if (!u || u.agency_id === null || !sameAgency(auth, u.agency_id)) throw notFound('User');
  return { id: u.id, agency_id: u.agency_id };
}

async function person(deps: AppDeps, auth: AuthContext, tenantUuid: string | undefined, userUuid: string | undefined): Promise<Person> {
  if (tenantUuid) {
    const t = await getTenantRow(deps.db, auth, tenantUuid);
    if (t.erased_at !== null) throw conflict('Tenant has been erased');
    return { agencyId: t.agency_id, tenantId: t.id, userId: null };
  }
  if (userUuid) {
    const u = await agencyUser(deps, auth, userUuid);
    return { agencyId: u.agency_id, tenantId: null, userId: u.id };
  }
  throw invalidParam('tenant_uuid');
}

/** GET /api/gdpr/consents: one page, newest given first. @throws 404 tenant/user of the filter */
export async function listConsents(deps: AppDeps, auth: AuthContext, q: ListConsentsQuery) {
  let tenantId: number | undefined;
  let userId: number | undefined;
  if (q.tenant_uuid) tenantId = (await getTenantRow(deps.db, auth, q.tenant_uuid)).id;
  if (q.user_uuid) userId = (await agencyUser(deps, auth, q.user_uuid)).id;
  const { rows, total } = await repo.listConsents(deps.db, {
    agencyId: readAgency(auth), tenantId, userId, purpose: q.purpose, active: q.active, limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toConsentDto), total };
}

/**
 * POST /api/gdpr/consents: records a consent.
 * @returns { consent, created } created false when one was in force already (returned as is)
 * @throws 400 no person or given_at in the future, 404 person, 409 erased tenant
 */
export async function giveConsent(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateConsentInput): Promise<{ consent: ConsentDto; created: boolean }> {
  if (input.tenant_uuid && input.user_uuid) throw invalidParam('user_uuid');
  const who = await person(deps, auth, input.tenant_uuid, input.user_uuid);
  const now = deps.clock.now();
  const givenAt = input.given_at ? new Date(input.given_at) : now;
  if (givenAt.getTime() > now.getTime()) throw invalidParam('given_at');
  const existing = await repo.findActive(deps.db, who, input.purpose);
  if (existing) return { consent: toConsentDto(existing), created: false };
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertConsent(trx, {
      uuid,
      agency_id: who.agencyId,
      tenant_id: who.tenantId,
      user_id: who.userId,
      purpose: input.purpose,
      source: input.source,
      given_at: givenAt,
      withdrawn_at: null,
      withdrawn_source: null,
      recorded_by_user_id: auth.userId,
      created_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'consent.give', resourceType: who.tenantId !== null ? 'tenant' : 'user', resourceId: who.tenantId ?? who.userId, agencyId: who.agencyId,
      details: { consent_id: id, purpose: input.purpose, source: input.source },
    });
  });
  return { consent: toConsentDto((await repo.findByUuid(deps.db, uuid))!), created: true };
}

/**
 * POST /api/gdpr/consents/{uuid}/withdraw: withdraws a consent now.
 * @throws 404 consent, 409 already withdrawn
 */
export async function withdrawConsent(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, source: string | undefined): Promise<ConsentDto> {
  const row = await repo.findByUuid(deps.db, uuid);
  if (!row || !sameAgency(auth, row.agency_id)) throw notFound('Consent');
  if (row.withdrawn_at !== null) throw conflict(`Consent was already withdrawn on ${new Date(row.withdrawn_at).toISOString()}`);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateConsent(trx, row.id, { withdrawn_at: now, withdrawn_source: source ?? 'api' });
    await recordActivity(trx, actor, now, {
      action: 'consent.withdraw', resourceType: row.tenant_id !== null ? 'tenant' : 'user', resourceId: row.tenant_id ?? row.user_id, agencyId: row.agency_id,
      details: { consent_id: row.id, purpose: row.purpose },
    });
  });
  return toConsentDto((await repo.findByUuid(deps.db, uuid))!);
}

/** The source of a consent withdrawn by a STOP text, or given back by a START text. */
export const SMS_REPLY_SOURCE = 'sms_reply';

/**
 * A STOP or START word texted from `phone` (docs/gdpr.md "Consents by text", docs/conversations.md
 * "SMS"). The people holding that number are the tenant records (not erased) with it as mobile or
 * phone, with their login accounts, and the login accounts of landlords with it as phone, in every
 * agency. `stop` withdraws each of their `sms_updates` consents in force (withdrawn_source
 * `sms_reply`); `start` gives back, as a new consent of source `sms_reply`, each one whose latest
 * consent a STOP withdrew and that has none in force (one withdrawn otherwise stays withdrawn).
 * Each change has its activity entry, as a change through the API has (`consent.withdraw`,
 * `consent.give`, details with `source` and `keyword`). Runs in the caller's transaction.
 * @param phone E.164 (normalisePhone); keyword the word texted, upper case
 * @returns the names of the agencies whose people hold the number, sorted (empty: nobody known)
 */
export async function smsReplyConsent(trx: DbOrTrx, phone: string, keyword: string, action: 'stop' | 'start', now: Date): Promise<string[]> {
  const held = await repo.holdersOfNumber(trx, phone.slice(-9));
  const holds = (n: string | null) => normalisePhone(n) === phone;
  const tenants = held.tenants.filter((t) => holds(t.mobile) || holds(t.phone));
  const landlords = held.landlords.filter((l) => holds(l.phone));
  if (tenants.length === 0 && landlords.length === 0) return [];
  const actor: Actor = { auth: null, ip: '127.0.0.1' };
  const purpose = 'sms_updates';
  const consents = await repo.consentsOfHolders(trx, tenants.map((t) => t.id), landlords.map((l) => l.id), purpose);
  const log = (c: { agency_id: number; tenant_id: number | null; user_id: number | null }, id: number, what: 'consent.withdraw' | 'consent.give') =>
    recordActivity(trx, actor, now, {
      action: what, resourceType: c.tenant_id !== null ? 'tenant' : 'user', resourceId: c.tenant_id ?? c.user_id, agencyId: c.agency_id,
      details: { consent_id: id, purpose, source: SMS_REPLY_SOURCE, keyword },
    });
  if (action === 'stop') {
    for (const c of consents.filter((x) => x.withdrawn_at === null)) {
      await repo.updateConsent(trx, c.id, { withdrawn_at: now, withdrawn_source: SMS_REPLY_SOURCE });
      await log(c, c.id, 'consent.withdraw');
    }
  } else {
    const latest = new Map<string, (typeof consents)[number]>();
    const inForce = new Set<string>();
    for (const c of consents) {
      const who = c.tenant_id !== null ? `t${c.tenant_id}` : `u${c.user_id}`;
      latest.set(who, c);
      if (c.withdrawn_at === null) inForce.add(who);
    }
    for (const [who, c] of latest) {
      if (inForce.has(who) || c.withdrawn_source !== SMS_REPLY_SOURCE) continue;
      const id = await repo.insertConsent(trx, {
        uuid: newUuid(), agency_id: c.agency_id, tenant_id: c.tenant_id, user_id: c.user_id, purpose, source: SMS_REPLY_SOURCE,
        given_at: now, withdrawn_at: null, withdrawn_source: null, recorded_by_user_id: null, created_at: now,
      });
      await log(c, id, 'consent.give');
    }
  }
  return [...new Set([...tenants, ...landlords].map((p) => p.agency_name))].sort();
}
