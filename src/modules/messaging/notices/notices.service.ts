/**
 * Notices (docs/messaging.md "Notices"): an agency administrator publishes a notice to every user
 * of the agency, or only one branch and/or one role, with a severity and a window (starts_at,
 * expires_at); users read the ones addressed to them now and mark them read; the author sees who
 * read it. Another agency's notice answers like a missing one.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { toIso } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import * as repo from './notices.repository.ts';
import type { CreateNoticeInput, CurrentNoticeDto, CurrentNoticesQuery, ListNoticesQuery, NoticeDto, UpdateNoticeInput } from './notices.schemas.ts';

const isoOrNull = (d: Date | string | null) => (d === null ? null : toIso(d));

function toDto(r: repo.NoticeRow): NoticeDto {
  return {
    uuid: r.uuid, title: r.title, body: r.body, severity: r.severity, branch_uuid: r.branch_uuid, branch_name: r.branch_name, role_code: r.role_code,
    starts_at: toIso(r.starts_at), expires_at: isoOrNull(r.expires_at), created_by: r.created_by, created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at), read_count: r.read_count,
  };
}

/** The agency's notice or 404 "Notice not found". */
async function ownNotice(db: DbOrTrx, agencyId: number, uuid: string) {
  const row = await repo.findNotice(db, agencyId, uuid);
  if (!row) throw notFound('Notice');
  return row;
}

/** Resolves branch_uuid and role_code inside the agency. @throws 404 Branch / Role not found */
async function audience(deps: AppDeps, agencyId: number, input: { branch_uuid?: string | null; role_code?: string | null }) {
  const out: { branch_id?: number | null; role_id?: number | null } = {};
  if (input.branch_uuid !== undefined) {
    out.branch_id = input.branch_uuid === null ? null : ((await repo.findBranch(deps.db, agencyId, input.branch_uuid))?.id ?? null);
    if (input.branch_uuid !== null && out.branch_id === null) throw notFound('Branch');
  }
  if (input.role_code !== undefined) {
    out.role_id = input.role_code === null ? null : ((await repo.findRole(deps.db, agencyId, input.role_code))?.id ?? null);
    if (input.role_code !== null && out.role_id === null) throw notFound('Role');
  }
  return out;
}

/** 400 expires_at unless it is null or after starts_at. */
function checkWindow(startsAt: Date, expiresAt: Date | null): void {
  if (expiresAt !== null && expiresAt <= startsAt) throw invalidParam('expires_at');
}

/**
 * POST /api/notices: publishes a notice.
 * @returns the notice
 * @throws 400 (expires_at not after starts_at), 403 no agency, 404 branch or role not found
 */
export async function createNotice(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateNoticeInput): Promise<NoticeDto> {
  const agencyId = writeAgency(auth);
  const who = await audience(deps, agencyId, input);
  const now = deps.clock.now();
  const startsAt = input.starts_at ? new Date(input.starts_at) : now;
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  checkWindow(startsAt, expiresAt);
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertNotice(trx, {
      uuid, agency_id: agencyId, branch_id: who.branch_id ?? null, role_id: who.role_id ?? null, title: input.title.trim() || input.title, body: input.body,
      severity: input.severity ?? 'info', starts_at: startsAt, expires_at: expiresAt, created_by_user_id: auth.userId, created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'notice.create', resourceType: 'notice', resourceId: id, agencyId });
  });
  return toDto(await ownNotice(deps.db, agencyId, uuid));
}

/** GET /api/notices: the agency's notices (state active, scheduled or expired), paginated. @throws 403 */
export async function listNotices(deps: AppDeps, auth: AuthContext, q: ListNoticesQuery) {
  const { rows, total } = await repo.listNotices(deps.db, writeAgency(auth), { state: q.state, now: deps.clock.now(), limit: q.limit, offset: q.offset });
  return { rows: rows.map(toDto), total };
}

/** GET /api/notices/{uuid}. @throws 403, 404 */
export async function getNotice(deps: AppDeps, auth: AuthContext, uuid: string): Promise<NoticeDto> {
  return toDto(await ownNotice(deps.db, writeAgency(auth), uuid));
}

/**
 * PUT /api/notices/{uuid}: changes the given fields (read receipts are kept).
 * @throws 400 nothing to change or a bad window, 403, 404 notice, branch or role
 */
export async function updateNotice(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, changes: UpdateNoticeInput): Promise<NoticeDto> {
  const agencyId = writeAgency(auth);
  const row = await ownNotice(deps.db, agencyId, uuid);
  if (Object.keys(changes).length === 0) throw invalidParam('body');
  const who = await audience(deps, agencyId, changes);
  const startsAt = changes.starts_at ? new Date(changes.starts_at) : new Date(row.starts_at);
  const expiresAt = changes.expires_at !== undefined ? (changes.expires_at === null ? null : new Date(changes.expires_at)) : row.expires_at === null ? null : new Date(row.expires_at);
  checkWindow(startsAt, expiresAt);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateNotice(trx, row.id, {
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.body !== undefined ? { body: changes.body } : {}),
      ...(changes.severity !== undefined ? { severity: changes.severity } : {}),
      ...who, starts_at: startsAt, expires_at: expiresAt, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'notice.update', resourceType: 'notice', resourceId: row.id, agencyId, details: { fields: Object.keys(changes) } });
  });
  return toDto(await ownNotice(deps.db, agencyId, uuid));
}

/** DELETE /api/notices/{uuid}: withdraws a notice (soft delete). @throws 403, 404 */
export async function deleteNotice(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<void> {
  const agencyId = writeAgency(auth);
  const row = await ownNotice(deps.db, agencyId, uuid);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateNotice(trx, row.id, { deleted_at: now, updated_at: now });
    await recordActivity(trx, actor, now, { action: 'notice.delete', resourceType: 'notice', resourceId: row.id, agencyId });
  });
}

function audienceOf(auth: AuthContext): repo.Audience | null {
  return auth.agencyId === null ? null : { agencyId: auth.agencyId, branchId: auth.branchId, roleId: auth.roleId, userId: auth.userId };
}

/** GET /api/notices/current: the notices addressed to the caller now (critical first), with read_at. SysOps: none. */
export async function currentNotices(deps: AppDeps, auth: AuthContext, q: CurrentNoticesQuery): Promise<{ rows: CurrentNoticeDto[]; total: number }> {
  const a = audienceOf(auth);
  if (!a) return { rows: [], total: 0 };
  const { rows, total } = await repo.currentNotices(deps.db, a, deps.clock.now(), q);
  return {
    rows: rows.map((r) => ({ uuid: r.uuid, title: r.title, body: r.body, severity: r.severity, starts_at: toIso(r.starts_at), expires_at: isoOrNull(r.expires_at), read_at: isoOrNull(r.read_at) })),
    total,
  };
}

/**
 * POST /api/notices/{uuid}/read: records that the caller read a notice addressed to them now
 * (again: the first read time stays).
 * @returns { uuid, read_at }
 * @throws 404 "Notice not found" for a notice not addressed to the caller, not showing, or of
 *   another agency
 */
export async function readNotice(deps: AppDeps, auth: AuthContext, uuid: string): Promise<{ uuid: string; read_at: string }> {
  const a = audienceOf(auth);
  const now = deps.clock.now();
  const row = a ? await repo.currentNotice(deps.db, a, now, uuid) : undefined;
  if (!row || !a) throw notFound('Notice');
  return { uuid, read_at: toIso(await repo.markRead(deps.db, row.id, a.userId, now)) };
}

/** GET /api/notices/{uuid}/reads: who read the notice and when, for the agency's administrators. @throws 403, 404 */
export async function noticeReads(deps: AppDeps, auth: AuthContext, uuid: string, page: { limit: number; offset: number }) {
  const row = await ownNotice(deps.db, writeAgency(auth), uuid);
  const { rows, total } = await repo.listReads(deps.db, row.id, page.limit, page.offset);
  return { rows: rows.map((r) => ({ user_uuid: r.user_uuid, name: r.name, read_at: toIso(r.read_at) })), total };
}
