/**
 * Rules of branch SLA response-time rules (spec 2.3a, 4.7, 4.8; docs/sla-rules.md): who reaches
 * which rules (SysOps all, agency administrators their agency's, agents their own branch's),
 * validation of every field, and the writes with their activity entries in one transaction.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { AppError, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findBranch, jobTypeExists } from '../jobs/index.ts';
import * as repo from './sla-rules.repository.ts';
import type { SlaScope, SlaRuleRow } from './sla-rules.repository.ts';
import type { JobDateField, SlaRuleDto, UpsertSlaRuleInput } from './sla-rules.schemas.ts';
import { HOUR_CALENDARS, recomputeOpenJobs, type SlaCalendar } from '../sla/index.ts';

/** Level from which a role with a branch still reaches its whole agency (Admin is 80). */
const AGENCY_WIDE_LEVEL = 80;

/** The caller's reach: SysOps all; admins (level >= 80) their agency; others their branch. */
export function slaScope(auth: AuthContext): SlaScope {
  if (isSysOps(auth)) return { kind: 'all' };
  if (auth.agencyId === null) return { kind: 'none' };
  if (auth.level >= AGENCY_WIDE_LEVEL) return { kind: 'agency', agencyId: auth.agencyId };
  if (auth.branchId === null) return { kind: 'none' };
  return { kind: 'branch', agencyId: auth.agencyId, branchId: auth.branchId };
}

/** Wire shape of a stored rule. */
export function toSlaRuleDto(row: SlaRuleRow): SlaRuleDto {
  return {
    uuid: row.uuid,
    branch_uuid: row.branch_uuid,
    branch_name: row.branch_name,
    job_status_from_id: row.job_status_from_id,
    job_status_to_id: row.job_status_to_id,
    job_type_id: row.job_type_id,
    job_priority: row.job_priority,
    date_field_to_track: row.date_field_to_track as JobDateField,
    date_field_to_compare: row.date_field_to_compare as JobDateField,
    minimum_response_days: row.minimum_response_days,
    response_hours: row.response_hours,
    calendar: row.calendar as SlaCalendar,
    description: row.description,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * A branch the caller may attach rules to: open, of the caller's agency (any agency for SysOps),
 * and the caller's own branch for a branch-bound caller.
 * @throws 404 "Branch not found" otherwise
 */
async function reachableBranch(deps: AppDeps, scope: SlaScope, uuid: string): Promise<{ id: number; agency_id: number }> {
  if (scope.kind === 'none') throw notFound('Branch');
  const branch = await findBranch(deps.db, uuid, scope.kind === 'all' ? null : scope.agencyId);
  if (!branch || branch.closed_at !== null) throw notFound('Branch');
  if (scope.kind === 'branch' && branch.id !== scope.branchId) throw notFound('Branch');
  return branch;
}

/**
 * GET /api/agents/branch-sla-response-times: one page of the rules the caller reaches.
 * @param q.branch_uuid optional filter; a branch outside the caller's reach is 404 "Branch not found"
 * @returns { rows: SlaRuleDto[], total }
 */
export async function listSlaRules(deps: AppDeps, auth: AuthContext, q: { branch_uuid?: string; limit: number; offset: number }) {
  const scope = slaScope(auth);
  let branchId: number | undefined;
  if (q.branch_uuid !== undefined) {
    if (scope.kind === 'none') throw notFound('Branch');
    const branch = await findBranch(deps.db, q.branch_uuid, scope.kind === 'all' ? null : scope.agencyId);
    if (!branch || (scope.kind === 'branch' && branch.id !== scope.branchId)) throw notFound('Branch');
    branchId = branch.id;
  }
  const { rows, total } = await repo.listRules(deps.db, scope, { branchId, limit: q.limit, offset: q.offset });
  return { rows: rows.map(toSlaRuleDto), total };
}

const REQUIRED_ON_CREATE = [
  'branch_uuid', 'job_status_from_id', 'job_status_to_id', 'date_field_to_track', 'date_field_to_compare',
] as const;

/**
 * POST /api/agents/branch-sla-response-times: creates a rule, or updates the rule named by `uuid`
 * (fields left out keep their values; job_type_id and job_priority may be set to null = any).
 * @returns { rule: SlaRuleDto, created: boolean }
 * @throws 400 naming the first missing or invalid field; 404 "SLA rule not found" for an unknown
 *   uuid or one outside the caller's reach; 404 "Branch not found" for a branch outside it
 */
export async function upsertSlaRule(deps: AppDeps, auth: AuthContext, actor: Actor, input: UpsertSlaRuleInput) {
  const scope = slaScope(auth);
  const existing = input.uuid !== undefined ? await repo.findRule(deps.db, scope, input.uuid) : undefined;
  if (input.uuid !== undefined && !existing) throw notFound('SLA rule');
  if (!existing) {
    for (const field of REQUIRED_ON_CREATE) if (input[field] === undefined) throw invalidParam(field);
  }
  const branch =
    input.branch_uuid !== undefined
      ? await reachableBranch(deps, scope, input.branch_uuid)
      : { id: existing!.branch_id, agency_id: existing!.agency_id };
  const merged = {
    job_status_from_id: input.job_status_from_id ?? existing!.job_status_from_id,
    job_status_to_id: input.job_status_to_id ?? existing!.job_status_to_id,
    job_type_id: input.job_type_id !== undefined ? input.job_type_id : (existing?.job_type_id ?? null),
    job_priority: input.job_priority !== undefined ? input.job_priority : (existing?.job_priority ?? null),
    date_field_to_track: input.date_field_to_track ?? (existing!.date_field_to_track as JobDateField),
    date_field_to_compare: input.date_field_to_compare ?? (existing!.date_field_to_compare as JobDateField),
    minimum_response_days: input.minimum_response_days ?? existing?.minimum_response_days,
    response_hours: input.response_hours !== undefined ? input.response_hours : (existing?.response_hours ?? null),
    calendar: input.calendar ?? ((existing?.calendar ?? 'calendar_days') as SlaCalendar),
    description: (input.description ?? existing?.description ?? '').trim(),
  };
  // The day modes need days and take no hours; the hour modes need hours (days are then 0).
  const hourMode = HOUR_CALENDARS.includes(merged.calendar);
  if (hourMode) {
    if (merged.response_hours === null) throw invalidParam('response_hours');
    if (input.minimum_response_days === undefined) merged.minimum_response_days = 0;
  } else {
    if (merged.minimum_response_days === undefined) throw invalidParam('minimum_response_days');
    if (input.response_hours !== undefined && input.response_hours !== null) throw invalidParam('response_hours');
    merged.response_hours = null;
  }
  const statuses = await repo.existingStatusIds(deps.db, [merged.job_status_from_id, merged.job_status_to_id]);
  if (!statuses.has(merged.job_status_from_id)) throw invalidParam('job_status_from_id');
  if (!statuses.has(merged.job_status_to_id) || merged.job_status_to_id === merged.job_status_from_id) {
    throw invalidParam('job_status_to_id');
  }
  if (merged.job_type_id !== null && !(await jobTypeExists(deps.db, merged.job_type_id))) throw invalidParam('job_type_id');
  if (merged.date_field_to_compare === merged.date_field_to_track) throw invalidParam('date_field_to_compare');

  const now = deps.clock.now();
  const uuid = existing?.uuid ?? newUuid();
  await deps.db.transaction().execute(async (trx) => {
    let ruleId: number;
    if (existing) {
      ruleId = existing.id;
      await repo.updateRule(trx, ruleId, { ...merged, minimum_response_days: merged.minimum_response_days ?? 0, branch_id: branch.id, agency_id: branch.agency_id, updated_at: now });
    } else {
      ruleId = await repo.insertRule(trx, {
        ...merged,
        minimum_response_days: merged.minimum_response_days ?? 0,
        uuid,
        agency_id: branch.agency_id,
        branch_id: branch.id,
        created_by_user_id: auth.userId,
        created_at: now,
        updated_at: now,
      });
    }
    await recordActivity(trx, actor, now, {
      action: existing ? 'sla_rule.update' : 'sla_rule.create',
      resourceType: 'sla_rule',
      resourceId: ruleId,
      agencyId: branch.agency_id,
    });
  });
  // The open jobs of the rule's branch (and of its former branch) are measured again, in batches.
  await recomputeOpenJobs(deps, { branchId: branch.id });
  if (existing && existing.branch_id !== branch.id) await recomputeOpenJobs(deps, { branchId: existing.branch_id });
  const row = await repo.findRule(deps.db, { kind: 'all' }, uuid);
  if (!row) throw new AppError('internal');
  return { rule: toSlaRuleDto(row), created: !existing };
}

/**
 * DELETE /api/agents/branch-sla-response-times: removes (soft-deletes) a rule.
 * @throws 404 "SLA rule not found" for an unknown, deleted or unreachable rule
 */
export async function deleteSlaRule(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<void> {
  const rule = await repo.findRule(deps.db, slaScope(auth), uuid);
  if (!rule) throw notFound('SLA rule');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateRule(trx, rule.id, { deleted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'sla_rule.delete', resourceType: 'sla_rule', resourceId: rule.id, agencyId: rule.agency_id });
  });
  await recomputeOpenJobs(deps, { branchId: rule.branch_id });
}
