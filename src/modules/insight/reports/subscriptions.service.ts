/**
 * Report subscriptions (docs/insight.md "Scheduled reports"): a user's weekly or monthly e-mail of
 * a named report with its filters. CRUD on one's own subscriptions (another user's answers 404),
 * each write with its activity-log entry in the same transaction.
 */
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findReport, mayDownload } from './reports.catalogue.ts';
import * as repo from './subscriptions.repository.ts';
import type { CreateSubscriptionInput, SubscriptionDto, UpdateSubscriptionInput } from './subscriptions.schemas.ts';

const RESOURCE = 'Report subscription';

/** Wire shape of a row. */
export function toDto(r: repo.SubscriptionRow): SubscriptionDto {
  const filters = typeof r.filters === 'string' ? JSON.parse(r.filters) : r.filters;
  return {
    uuid: r.uuid, report: r.report, format: r.format, frequency: r.frequency, filters: (filters ?? {}) as Record<string, unknown>,
    last_period: r.last_period, last_sent_at: toIsoOrNull(r.last_sent_at), created_at: toIso(r.created_at), updated_at: toIso(r.updated_at),
  };
}

/**
 * Checks filters against the report's filter schema.
 * @throws 400 naming `filters` when a key is unknown or a value out of bounds
 */
function checkFilters(reportName: string, filters: Record<string, unknown>): void {
  const def = findReport(reportName);
  if (!def || !Value.Check(Type.Object(def.filters, { additionalProperties: false }), filters)) throw invalidParam('filters');
}

/** The caller's subscriptions, one page. */
export async function listSubscriptions(deps: AppDeps, auth: AuthContext, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listOwn(deps.db, auth.userId, page);
  return { rows: rows.map(toDto), total };
}

/** One of the caller's subscriptions. @throws 404 */
export async function getSubscription(deps: AppDeps, auth: AuthContext, uuid: string): Promise<SubscriptionDto> {
  const row = await repo.findOwn(deps.db, auth.userId, uuid);
  if (!row) throw notFound(RESOURCE);
  return toDto(row);
}

/**
 * Creates a subscription of the caller.
 * @throws 400 (filters); 403 when the report needs a permission the caller lacks
 */
export async function createSubscription(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateSubscriptionInput): Promise<SubscriptionDto> {
  const filters = input.filters ?? {};
  checkFilters(input.report, filters);
  const def = findReport(input.report);
  if (def && !mayDownload(def, auth)) throw forbidden();
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertSubscription(trx, {
      uuid, agency_id: auth.agencyId, user_id: auth.userId, report: input.report, format: input.format ?? 'csv',
      frequency: input.frequency, filters: JSON.stringify(filters), last_period: null, last_sent_at: null, created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'report_subscription.create', resourceType: 'report_subscription', resourceId: id, details: { report: input.report, frequency: input.frequency } });
  });
  return getSubscription(deps, auth, uuid);
}

/** Changes format, frequency or filters of one of the caller's subscriptions. @throws 400, 404 */
export async function updateSubscription(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateSubscriptionInput): Promise<SubscriptionDto> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findOwn(trx, auth.userId, uuid);
    if (!row) throw notFound(RESOURCE);
    if (input.filters !== undefined) checkFilters(row.report, input.filters);
    await repo.updateSubscriptionRow(trx, row.id, {
      updated_at: now,
      ...(input.format !== undefined ? { format: input.format } : {}),
      ...(input.frequency !== undefined ? { frequency: input.frequency } : {}),
      ...(input.filters !== undefined ? { filters: JSON.stringify(input.filters) } : {}),
    });
    await recordActivity(trx, actor, now, { action: 'report_subscription.update', resourceType: 'report_subscription', resourceId: row.id });
  });
  return getSubscription(deps, auth, uuid);
}

/** Ends one of the caller's subscriptions (soft delete). @throws 404 */
export async function deleteSubscription(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findOwn(trx, auth.userId, uuid);
    if (!row) throw notFound(RESOURCE);
    await repo.updateSubscriptionRow(trx, row.id, { deleted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'report_subscription.delete', resourceType: 'report_subscription', resourceId: row.id });
  });
}
