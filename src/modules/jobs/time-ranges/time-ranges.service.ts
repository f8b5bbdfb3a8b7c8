/**
 * Job time ranges (spec 2.5, 4.13; docs/time-ranges.md). Global slots (agency_id null) are seen by
 * every agency and changed by SysOps only; an agency administrator adds, renames and retires the
 * agency's own slots, which only that agency sees. Retired slots leave the list but stay on jobs.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './time-ranges.repository.ts';
import type { RangeScope, TimeRangeRow } from './time-ranges.repository.ts';
import type { CreateTimeRangeInput, TimeRangeDto, UpdateTimeRangeInput } from './time-ranges.schemas.ts';

/** SysOps see every slot; anyone else the global slots and their agency's. */
function rangeScope(auth: AuthContext): RangeScope {
  return isSysOps(auth) ? { kind: 'all' } : { kind: 'agency', agencyId: auth.agencyId };
}

/** Wire shape of a slot (spec 2.5 `ID`, `range_label`, plus times, order and owner). */
export function toTimeRangeDto(row: TimeRangeRow): TimeRangeDto {
  return {
    ID: row.id,
    range_label: row.range_label,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    sort_order: row.sort_order,
    agency_uuid: row.agency_uuid,
  };
}

/** GET /api/jobs/time-ranges?action=list: the live slots the caller sees, in list order. */
export async function listTimeRanges(deps: AppDeps, auth: AuthContext): Promise<TimeRangeDto[]> {
  return (await repo.listRanges(deps.db, rangeScope(auth))).map(toTimeRangeDto);
}

/** 400 ends_at unless both times are absent/null or starts_at < ends_at. */
function checkTimes(startsAt: string | null, endsAt: string | null): void {
  if (startsAt !== null && endsAt !== null && startsAt >= endsAt) throw invalidParam('ends_at');
}

/**
 * 409 when another live slot with the same label (case-insensitive) is visible beside this one:
 * for an agency slot the global ones and the agency's; for a global slot the global ones.
 */
async function checkLabel(deps: AppDeps, agencyId: number | null, label: string, exceptId?: number): Promise<void> {
  const seen = await repo.listRanges(deps.db, { kind: 'agency', agencyId });
  const clash = seen.find((r) => r.id !== exceptId && r.range_label.toLowerCase() === label.toLowerCase() && (agencyId !== null || r.agency_id === null));
  if (clash) throw conflict('A time range with this label already exists');
}

/**
 * POST /api/jobs/time-ranges: adds a slot; global for SysOps, the caller's agency's otherwise.
 * sort_order defaults to after the last slot the owner sees.
 * @returns the new slot
 * @throws 400 for a blank label or ends_at not after starts_at; 403 for a caller of no agency;
 *   409 for a label already in use
 */
export async function createTimeRange(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateTimeRangeInput): Promise<TimeRangeDto> {
  const agencyId = isSysOps(auth) ? null : auth.agencyId;
  if (agencyId === null && !isSysOps(auth)) throw forbidden();
  const label = input.range_label.trim();
  if (label === '') throw invalidParam('range_label');
  const startsAt = input.starts_at ?? null;
  const endsAt = input.ends_at ?? null;
  checkTimes(startsAt, endsAt);
  await checkLabel(deps, agencyId, label);
  const visible = await repo.listRanges(deps.db, { kind: 'agency', agencyId });
  const sortOrder = input.sort_order ?? Math.max(0, ...visible.map((r) => r.sort_order)) + 10;
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const rangeId = await repo.insertRange(trx, {
      range_label: label, starts_at: startsAt, ends_at: endsAt, sort_order: sortOrder, agency_id: agencyId, created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'time_range.create', resourceType: 'time_range', resourceId: rangeId, agencyId });
    return rangeId;
  });
  return toTimeRangeDto((await repo.findRange(deps.db, { kind: 'all' }, id))!);
}

/**
 * The live slot `id` the caller may change.
 * @throws 404 "Time range not found" (unknown, retired, another agency's); 403 for a global slot
 *   and a caller other than SysOps
 */
async function changeableRange(deps: AppDeps, auth: AuthContext, id: number): Promise<TimeRangeRow> {
  const row = await repo.findRange(deps.db, rangeScope(auth), id);
  if (!row) throw notFound('Time range');
  if (row.agency_id === null && !isSysOps(auth)) throw forbidden('Only SysOps can change the global time ranges');
  return row;
}

/**
 * PUT /api/jobs/time-ranges/{id}: renames a slot or changes its times or order; fields left out
 * keep their values.
 * @returns the slot as stored
 * @throws 400 (no field given, blank label, times out of order), 403, 404, 409 as above
 */
export async function updateTimeRange(deps: AppDeps, auth: AuthContext, actor: Actor, id: number, changes: UpdateTimeRangeInput): Promise<TimeRangeDto> {
  const row = await changeableRange(deps, auth, id);
  if (Object.keys(changes).length === 0) throw invalidParam('body');
  const label = changes.range_label?.trim() ?? row.range_label;
  if (label === '') throw invalidParam('range_label');
  const startsAt = changes.starts_at !== undefined ? changes.starts_at : row.starts_at;
  const endsAt = changes.ends_at !== undefined ? changes.ends_at : row.ends_at;
  checkTimes(startsAt, endsAt);
  if (label.toLowerCase() !== row.range_label.toLowerCase()) await checkLabel(deps, row.agency_id, label, row.id);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const live = await repo.updateRange(trx, row.id, {
      range_label: label, starts_at: startsAt, ends_at: endsAt, sort_order: changes.sort_order ?? row.sort_order, updated_at: now,
    });
    // Retired by a concurrent DELETE since it was read: the same 404 as a missing slot.
    if (!live) throw notFound('Time range');
    await recordActivity(trx, actor, now, { action: 'time_range.update', resourceType: 'time_range', resourceId: row.id, agencyId: row.agency_id });
  });
  const after = await repo.findRange(deps.db, { kind: 'all' }, row.id);
  if (!after) throw notFound('Time range');
  return toTimeRangeDto(after);
}

/**
 * DELETE /api/jobs/time-ranges/{id}: retires a slot (sets retired_at); jobs keep it.
 * @throws 403, 404 as above
 */
export async function retireTimeRange(deps: AppDeps, auth: AuthContext, actor: Actor, id: number): Promise<void> {
  const row = await changeableRange(deps, auth, id);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.updateRange(trx, row.id, { retired_at: now, updated_at: now }))) throw notFound('Time range');
    await recordActivity(trx, actor, now, { action: 'time_range.retire', resourceType: 'time_range', resourceId: row.id, agencyId: row.agency_id });
  });
}
