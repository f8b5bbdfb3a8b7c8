/**
 * The iCalendar feed of scheduled jobs (docs/calendar.md). Calendar apps cannot send a bearer
 * token, so the feed authenticates by a per-user key in its URL: 32 random bytes as 64 hex
 * characters, shown once, stored as SHA-256 only. Regenerating replaces (and so invalidates) the
 * old key; revoking removes it. The feed shows the key owner's visible jobs from 30 days back to
 * 180 days ahead as events with UID = job uuid; costs are left out for tenants.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import { SECONDS, toIsoOrNull } from '../../../lib/clock.ts';
import { hashToken, isTokenShaped, newToken } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { jobScope, seesInternalFields } from '../jobs/index.ts';
import * as repo from './calendar.repository.ts';
import { scheduledEntries } from './calendar.service.ts';

/** The feed window around now, in days. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 180;
/** Most events one feed carries. */
export const FEED_MAX_EVENTS = 5000;
/** Permission the key owner must still hold for the feed to answer. */
export const FEED_PERMISSION = 'api.calendar.view';


/**
 * POST /api/calendar/feed-key: creates the caller's feed key, or replaces it (the old key stops
 * working at once). The key is returned this once.
 * @returns { key, feed_url, created_at, regenerated }
 */
export async function createFeedKey(deps: AppDeps, auth: AuthContext, actor: Actor) {
  const key = newToken();
  const now = deps.clock.now();
  const regenerated = await deps.db.transaction().execute(async (trx) => {
    const replaced = await repo.upsertFeedKey(trx, auth.userId, hashToken(key), now);
    await recordActivity(trx, actor, now, {
      action: replaced ? 'calendar_feed_key.regenerate' : 'calendar_feed_key.create',
      resourceType: 'calendar_feed_key',
      resourceId: auth.userId,
    });
    return replaced;
  });
  return { key, feed_url: `/api/calendar/feed.ics?key=${key}`, created_at: now.toISOString(), regenerated };
}

/** GET /api/calendar/feed-key: whether the caller has a key (never the key). */
export async function feedKeyStatus(deps: AppDeps, auth: AuthContext) {
  const row = await repo.findFeedKey(deps.db, auth.userId);
  return { exists: row !== undefined, created_at: toIsoOrNull(row?.created_at ?? null), last_used_at: toIsoOrNull(row?.last_used_at ?? null) };
}

/**
 * DELETE /api/calendar/feed-key: revokes the caller's key.
 * @throws 404 "Feed key not found" when there is none
 */
export async function revokeFeedKey(deps: AppDeps, auth: AuthContext, actor: Actor): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteFeedKey(trx, auth.userId))) throw notFound('Feed key');
    await recordActivity(trx, actor, now, { action: 'calendar_feed_key.revoke', resourceType: 'calendar_feed_key', resourceId: auth.userId });
  });
}

/** The AuthContext of a feed key's owner, or undefined for an unknown key or an inactive owner. */
async function feedOwner(deps: AppDeps, key: string): Promise<AuthContext | undefined> {
  if (!isTokenShaped(key)) return undefined;
  const row = await repo.findFeedOwner(deps.db, hashToken(key));
  if (!row || row.status !== 'active') return undefined;
  const permissions = new Set(row.permissions);
  if (!permissions.has(FEED_PERMISSION)) return undefined;
  return {
    userId: row.user_id, userUuid: row.user_uuid, name: row.name, email: row.email, agencyId: row.agency_id,
    branchId: row.branch_id, roleId: row.role_id, roleCode: row.role_code, roleName: row.role_name, level: row.level,
    contractorId: row.contractor_id, tenantId: row.tenant_id, landlordId: row.landlord_id, permissions, tokenId: 0, tokenKind: 'login',
  };
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/**
 * GET /api/calendar/feed.ics?key=: the key owner's scheduled jobs as iCalendar text.
 * @returns the text/calendar body
 * @throws 404 "Calendar feed not found" for an unknown, revoked or malformed key, or an owner who
 *   is disabled or no longer holds api.calendar.view
 */
export async function renderFeed(deps: AppDeps, key: string): Promise<string> {
  const owner = await feedOwner(deps, key);
  if (!owner) throw notFound('Calendar feed');
  const now = deps.clock.now();
  await repo.touchFeedKey(deps.db, owner.userId, now);
  const scope = jobScope(owner);
  const from = new Date(now.getTime() - FEED_DAYS_BACK * SECONDS.day * 1000);
  const to = new Date(now.getTime() + FEED_DAYS_AHEAD * SECONDS.day * 1000);
  const { rows, entries } = await scheduledEntries(deps, scope, from, to, { limit: FEED_MAX_EVENTS, offset: 0 });

  const { default: ical } = await import('ical-generator');
  const cal = ical({ name: `Caretaker: ${owner.name}`, prodId: { company: 'Caretaker', product: 'Caretaker', language: 'EN' }, ttl: SECONDS.hour });
  const withCosts = seesInternalFields(scope);
  entries.forEach((e, i) => {
    const row = rows[i]!;
    const lines = [`Status: ${e.status}`, `Priority: ${e.priority}`, `Branch: ${e.branch_name}`];
    if (e.time_range) lines.push(`Slot: ${e.time_range.range_label}`);
    if (e.contractor_name) lines.push(`Contractor: ${e.contractor_name}`);
    if (withCosts && row.agreed_cost_pence !== null) lines.push(`Agreed cost: ${pounds(row.agreed_cost_pence)}`);
    else if (withCosts && row.estimated_cost_pence !== null) lines.push(`Estimated cost: ${pounds(row.estimated_cost_pence)}`);
    if (row.description) lines.push('', row.description);
    cal.createEvent({
      id: e.job_uuid,
      stamp: now,
      // An all-day event is its London date (DTSTART;VALUE=DATE); the date is given at UTC midnight.
      start: e.all_day ? new Date(`${e.date}T00:00:00Z`) : new Date(e.start),
      end: e.all_day ? null : new Date(e.end),
      allDay: e.all_day,
      summary: e.summary,
      location: e.location,
      description: lines.join('\n'),
    });
  });
  return cal.toString();
}
