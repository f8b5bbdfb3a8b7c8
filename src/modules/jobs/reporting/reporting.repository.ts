/**
 * SQL of tenant self-service (docs/tenant-reporting.md): triage flows and their versions, guided
 * reports, on-call contacts, reporting settings, duplicate candidates, merges, recalls and
 * surveys. No rules here.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { STATUS } from '../jobs/index.ts';
import { newUuid } from '../../../lib/crypto.ts';
import type { FlowTree } from './flow-tree.ts';
import type { SeedFlow } from './flows-catalogue.ts';

/** Inserts the seeded flows whose codes the agency lacks, each as its version 1. */
export async function seedFlows(db: DbOrTrx, agencyId: number, flows: SeedFlow[], now: Date): Promise<void> {
  const have = new Set((await db.selectFrom('triage_flows').select('code').where('agency_id', '=', agencyId).execute()).map((r) => r.code));
  let position = 0;
  for (const f of flows) {
    position += 10;
    if (have.has(f.code)) continue;
    const row = await db
      .insertInto('triage_flows')
      .values({ uuid: newUuid(), agency_id: agencyId, code: f.code, name: f.name, position, current_version: 1, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['agency_id', 'code']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) continue;
    await db.insertInto('triage_flow_versions').values({ flow_id: row.id, version: 1, name: f.name, tree: JSON.stringify(f.tree), created_by_user_id: null, created_at: now }).execute();
  }
}

/** True when the agency has any flow (seeded or made). */
export async function hasFlows(db: DbOrTrx, agencyId: number): Promise<boolean> {
  return (await db.selectFrom('triage_flows').select('id').where('agency_id', '=', agencyId).limit(1).executeTakeFirst()) !== undefined;
}

const FLOW_COLUMNS = ['f.id', 'f.uuid', 'f.agency_id', 'f.code', 'f.position', 'f.current_version', 'f.updated_at', 'v.id as version_id', 'v.version', 'v.name', 'v.tree', 'v.created_at as version_created_at'] as const;

/** The agency's live flows at their current versions, by position then name. */
export function listFlows(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('triage_flows as f')
    .innerJoin('triage_flow_versions as v', (j) => j.onRef('v.flow_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .select(FLOW_COLUMNS)
    .where('f.agency_id', '=', agencyId)
    .where('f.retired_at', 'is', null)
    .orderBy('f.position')
    .orderBy('v.name')
    .execute();
}
export type FlowRow = Awaited<ReturnType<typeof listFlows>>[number];

/** One flow of the agency by code at a version (default its current one), or undefined. */
export function findFlow(db: DbOrTrx, agencyId: number, code: string, version?: number) {
  return db
    .selectFrom('triage_flows as f')
    .innerJoin('triage_flow_versions as v', (j) =>
      version === undefined ? j.onRef('v.flow_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version') : j.onRef('v.flow_id', '=', 'f.id').on('v.version', '=', version))
    .select(FLOW_COLUMNS)
    .where('f.agency_id', '=', agencyId)
    .where('f.code', '=', code)
    .where('f.retired_at', 'is', null)
    .executeTakeFirst();
}

/** The versions of a flow, newest first, with who saved each. */
export function listVersions(db: DbOrTrx, flowId: number) {
  return db
    .selectFrom('triage_flow_versions as v')
    .leftJoin('users as u', 'u.id', 'v.created_by_user_id')
    .select(['v.version', 'v.name', 'v.created_at', 'u.uuid as created_by_uuid', 'u.name as created_by_name'])
    .where('v.flow_id', '=', flowId)
    .orderBy('v.version', 'desc')
    .execute();
}

/** Locks a flow row of the agency by code (for saving a new version); undefined when missing. */
export function lockFlow(db: DbOrTrx, agencyId: number, code: string) {
  return db.selectFrom('triage_flows').select(['id', 'current_version']).where('agency_id', '=', agencyId).where('code', '=', code).forUpdate().executeTakeFirst();
}

/** Creates a flow row (version 0 until its first version is added). */
export async function insertFlow(db: DbOrTrx, row: { agency_id: number; code: string; name: string; position: number; now: Date }): Promise<number> {
  const r = await db
    .insertInto('triage_flows')
    .values({ uuid: newUuid(), agency_id: row.agency_id, code: row.code, name: row.name, position: row.position, current_version: 0, created_at: row.now, updated_at: row.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Adds a version to a flow and makes it current. */
export async function addVersion(db: DbOrTrx, v: { flowId: number; version: number; name: string; tree: FlowTree; position?: number | undefined; userId: number; now: Date }) {
  await db.insertInto('triage_flow_versions').values({
    flow_id: v.flowId, version: v.version, name: v.name, tree: JSON.stringify(v.tree), created_by_user_id: v.userId, created_at: v.now,
  }).execute();
  await db.updateTable('triage_flows').set({
    current_version: v.version, name: v.name, updated_at: v.now, ...(v.position !== undefined ? { position: v.position } : {}),
  }).where('id', '=', v.flowId).execute();
}

/** The addresses linked to a tenant with their branch. */
export function tenantAddresses(db: DbOrTrx, tenantId: number) {
  return db
    .selectFrom('tenant_addresses as ta')
    .innerJoin('addresses as a', 'a.id', 'ta.address_id')
    .select(['a.id', 'a.uuid', 'a.branch_id'])
    .where('ta.tenant_id', '=', tenantId)
    .orderBy('a.id')
    .execute();
}

/** An address of the agency by uuid. */
export function findAddress(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('addresses').select(['id', 'uuid', 'branch_id']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).executeTakeFirst();
}

/**
 * Open jobs at the address with the trade (not deleted, not merged away), newest first: the
 * candidates a new report may be added to instead.
 */
export function openJobsAt(db: DbOrTrx, agencyId: number, addressId: number, tradeId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(['j.id', 'j.uuid', 'j.reference', 'j.title', 's.name as status', 'j.created_at'])
    .where('j.agency_id', '=', agencyId)
    .where('j.address_id', '=', addressId)
    .where('j.trade_id', '=', tradeId)
    .where('j.deleted_at', 'is', null)
    .where('s.is_open', '=', true)
    .where('j.status_id', 'not in', [STATUS.completed, STATUS.invoiced])
    .orderBy('j.created_at', 'desc')
    .limit(5)
    .execute();
}

/** Completed jobs at the address with the trade completed at or after `since`: recall candidates. */
export function recentlyCompletedAt(db: DbOrTrx, agencyId: number, addressId: number, tradeId: number, since: Date) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(['j.id', 'j.uuid', 'j.reference', 'j.title', 's.name as status', 'j.completed_at'])
    .where('j.agency_id', '=', agencyId)
    .where('j.address_id', '=', addressId)
    .where('j.trade_id', '=', tradeId)
    .where('j.deleted_at', 'is', null)
    .where('j.completed_at', '>=', since)
    .where('j.status_id', 'in', [STATUS.completed, STATUS.invoiced, STATUS.closed])
    .orderBy('j.completed_at', 'desc')
    .limit(5)
    .execute();
}

/** A trade id by code among the platform's and the agency's trades. */
export function tradeIdsByCode(db: DbOrTrx, agencyId: number, codes: string[]) {
  if (codes.length === 0) return Promise.resolve([] as Array<{ id: number; code: string; agency_id: number | null }>);
  return db
    .selectFrom('trades')
    .select(['id', 'code', 'agency_id'])
    .where('code', 'in', codes)
    .where('retired_at', 'is', null)
    .where((eb) => eb.or([eb('agency_id', 'is', null), eb('agency_id', '=', agencyId)]))
    .orderBy('agency_id', 'asc')
    .execute();
}

/** Inserts a guided report; returns its id. */
export async function insertReport(db: DbOrTrx, r: {
  uuid: string; agency_id: number; branch_id: number | null; flow_id: number; flow_version_id: number; tenant_id: number | null;
  reported_by_user_id: number; address_id: number | null; answers: unknown; outcome: string; outcome_node: string; job_id: number | null;
  description: string; created_at: Date;
}): Promise<number> {
  const row = await db.insertInto('tenant_reports').values({ ...r, answers: JSON.stringify(r.answers) }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

function reportQuery(db: DbOrTrx) {
  return db
    .selectFrom('tenant_reports as r')
    .innerJoin('triage_flows as f', 'f.id', 'r.flow_id')
    .innerJoin('triage_flow_versions as v', 'v.id', 'r.flow_version_id')
    .leftJoin('jobs as j', 'j.id', 'r.job_id')
    .leftJoin('tenants as t', 't.id', 'r.tenant_id')
    .leftJoin('addresses as a', 'a.id', 'r.address_id')
    .leftJoin('branches as b', 'b.id', 'r.branch_id')
    .select([
      'r.id', 'r.uuid', 'r.agency_id', 'r.outcome', 'r.outcome_node', 'r.answers', 'r.description', 'r.created_at',
      'f.code as flow_code', 'v.name as flow_name', 'v.version as flow_version', 'v.tree',
      'j.uuid as job_uuid', 'j.reference as job_reference', 't.uuid as tenant_uuid', 't.name as tenant_name',
      'a.uuid as address_uuid', 'a.line1 as address_line1', 'a.postcode', 'b.uuid as branch_uuid',
    ]);
}
export type ReportRow = NonNullable<Awaited<ReturnType<typeof findReport>>>;

/** One report by id or uuid (inside the agency when given). */
export function findReport(db: DbOrTrx, by: { id?: number; uuid?: string }, agencyId: number | null) {
  let q = reportQuery(db);
  if (by.id !== undefined) q = q.where('r.id', '=', by.id);
  if (by.uuid !== undefined) q = q.where('r.uuid', '=', by.uuid);
  if (agencyId !== null) q = q.where('r.agency_id', '=', agencyId);
  return q.executeTakeFirst();
}

/** A page of the agency's reports (every agency when null), newest first, with the total. */
export async function listReports(db: DbOrTrx, agencyId: number | null, f: { outcome?: string | undefined; flowCode?: string | undefined; from?: Date | undefined; to?: Date | undefined; limit: number; offset: number }) {
  let q = reportQuery(db);
  if (agencyId !== null) q = q.where('r.agency_id', '=', agencyId);
  if (f.outcome) q = q.where('r.outcome', '=', f.outcome);
  if (f.flowCode) q = q.where('f.code', '=', f.flowCode);
  if (f.from) q = q.where('r.created_at', '>=', f.from);
  if (f.to) q = q.where('r.created_at', '<', f.to);
  const rows = await q.select(sql<number>`(count(*) over ())::int`.as('total')).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(f.limit).offset(f.offset).execute();
  return { rows, total: rows[0]?.total ?? 0 };
}

/** The on-call contacts of the agency's branches (a branch without one is listed with nulls). */
export function listOnCall(db: DbOrTrx, agencyId: number) {
  return db
    .selectFrom('branches as b')
    .leftJoin('branch_on_call as o', 'o.branch_id', 'b.id')
    .select(['b.id as branch_id', 'b.uuid as branch_uuid', 'b.name as branch_name', 'o.name', 'o.phone', 'o.email', 'o.updated_at'])
    .where('b.agency_id', '=', agencyId)
    .where('b.closed_at', 'is', null)
    .orderBy('b.name')
    .execute();
}

/** Sets a branch's on-call contact. */
export async function upsertOnCall(db: DbOrTrx, row: { branch_id: number; agency_id: number; name: string; phone: string; email: string; updated_at: Date }) {
  await db.insertInto('branch_on_call').values(row)
    .onConflict((oc) => oc.column('branch_id').doUpdateSet({ name: row.name, phone: row.phone, email: row.email, updated_at: row.updated_at }))
    .execute();
}

/** The on-call contact of a branch, if any. */
export function findOnCall(db: DbOrTrx, branchId: number) {
  return db.selectFrom('branch_on_call').select(['name', 'phone', 'email']).where('branch_id', '=', branchId).executeTakeFirst();
}

/** The agency's reporting settings, defaults when never set. */
export async function settingsOf(db: DbOrTrx, agencyId: number): Promise<{ recall_days: number; survey_link_days: number }> {
  const row = await db.selectFrom('reporting_settings').select(['recall_days', 'survey_link_days']).where('agency_id', '=', agencyId).executeTakeFirst();
  return row ?? { recall_days: 28, survey_link_days: 14 };
}

/** Sets the agency's reporting settings. */
export async function upsertSettings(db: DbOrTrx, agencyId: number, s: { recall_days: number; survey_link_days: number }, now: Date) {
  await db.insertInto('reporting_settings').values({ agency_id: agencyId, ...s, updated_at: now })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet({ ...s, updated_at: now }))
    .execute();
}

/** Records a merge. */
export async function insertMerge(db: DbOrTrx, m: { agency_id: number; kept_job_id: number; merged_job_id: number; by_user_id: number; note: string | null; created_at: Date }) {
  await db.insertInto('job_merges').values(m).execute();
}

/** True when the job was merged into another. */
export async function isMerged(db: DbOrTrx, jobId: number): Promise<boolean> {
  return (await db.selectFrom('job_merges').select('id').where('merged_job_id', '=', jobId).executeTakeFirst()) !== undefined;
}

/** Records a recall. */
export async function insertRecall(db: DbOrTrx, r: { job_id: number; original_job_id: number; agency_id: number; reason: string; by_user_id: number; created_at: Date }) {
  await db.insertInto('job_recalls').values(r).execute();
}

/** The open recall of a job, if one is still open. */
export function openRecallOf(db: DbOrTrx, originalJobId: number) {
  return db
    .selectFrom('job_recalls as r')
    .innerJoin('jobs as j', 'j.id', 'r.job_id')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select(['j.reference'])
    .where('r.original_job_id', '=', originalJobId)
    .where('s.is_open', '=', true)
    .where('j.deleted_at', 'is', null)
    .executeTakeFirst();
}

const linkedJob = ['j.uuid', 'j.reference', 'j.title', 's.name as status'] as const;

/** The jobs linked to a job: what it recalls or was merged into, its recalls and merged duplicates, its reports. */
export async function jobLinks(db: DbOrTrx, jobId: number) {
  const recallOf = await db.selectFrom('job_recalls as r').innerJoin('jobs as j', 'j.id', 'r.original_job_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select([...linkedJob, 'r.reason', 'r.created_at']).where('r.job_id', '=', jobId).executeTakeFirst();
  const recalls = await db.selectFrom('job_recalls as r').innerJoin('jobs as j', 'j.id', 'r.job_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select([...linkedJob, 'r.reason', 'r.created_at']).where('r.original_job_id', '=', jobId).orderBy('r.created_at').execute();
  const mergedInto = await db.selectFrom('job_merges as m').innerJoin('jobs as j', 'j.id', 'm.kept_job_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select([...linkedJob, 'm.note', 'm.created_at']).where('m.merged_job_id', '=', jobId).executeTakeFirst();
  const merged = await db.selectFrom('job_merges as m').innerJoin('jobs as j', 'j.id', 'm.merged_job_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .select([...linkedJob, 'm.note', 'm.created_at']).where('m.kept_job_id', '=', jobId).orderBy('m.created_at').execute();
  const reports = await db.selectFrom('tenant_reports as r').innerJoin('triage_flow_versions as v', 'v.id', 'r.flow_version_id')
    .select(['r.uuid', 'r.outcome', 'v.name as flow_name', 'v.version as flow_version', 'r.created_at']).where('r.job_id', '=', jobId).orderBy('r.created_at').execute();
  const survey = await db.selectFrom('job_surveys').select(['rating', 'comment', 'answered_at', 'expires_at', 'created_at']).where('job_id', '=', jobId).executeTakeFirst();
  return { recallOf, recalls, mergedInto, merged, reports, survey };
}

/** The facts a survey needs about a completed job: its tenant's e-mail, contractor and property. */
export function surveyFacts(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .leftJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.agency_id', 'j.tenant_id', 'j.contractor_id', 'j.completed_at',
      't.uuid as tenant_uuid', 't.name as tenant_name', 't.email as tenant_email', 't.erased_at', 'a.line1', 'a.town', 'a.postcode', 'ag.name as agency_name',
    ])
    .where('j.id', '=', jobId)
    .executeTakeFirst();
}

/** Creates the job's survey unless it has one; returns the row (new or existing) and whether it was new. */
export async function insertSurvey(db: DbOrTrx, s: { uuid: string; agency_id: number; job_id: number; tenant_id: number; contractor_id: number | null; nonce: string; expires_at: Date; created_at: Date }) {
  const row = await db.insertInto('job_surveys').values(s).onConflict((oc) => oc.column('job_id').doNothing()).returning(['id']).executeTakeFirst();
  return row !== undefined;
}

/** A survey by its link's nonce, with the job's facts for the page. */
export function findSurveyByNonce(db: DbOrTrx, nonce: string) {
  return db
    .selectFrom('job_surveys as s')
    .innerJoin('jobs as j', 'j.id', 's.job_id')
    .innerJoin('tenants as t', 't.id', 's.tenant_id')
    .innerJoin('agencies as ag', 'ag.id', 's.agency_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('contractors as c', 'c.id', 's.contractor_id')
    .select([
      's.id', 's.uuid', 's.agency_id', 's.job_id', 's.nonce', 's.expires_at', 's.answered_at', 's.rating', 's.comment',
      'j.uuid as job_uuid', 'j.reference', 'j.title', 'j.branch_id', 'j.completed_at', 't.uuid as tenant_uuid', 'ag.name as agency_name',
      'a.line1', 'a.town', 'a.postcode', 'c.company_name',
    ])
    .where('s.nonce', '=', nonce)
    .executeTakeFirst();
}

/** Records the answer once: only while unanswered. @returns true when this call answered it */
export async function answerSurvey(db: DbOrTrx, id: number, a: { rating: number; comment: string | null; at: Date }): Promise<boolean> {
  const r = await db.updateTable('job_surveys').set({ rating: a.rating, comment: a.comment, answered_at: a.at }).where('id', '=', id).where('answered_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A job of the agency by uuid: id, uuid, reference and branch (the caller has checked visibility). */
export function jobIdByUuid(db: DbOrTrx, agencyId: number, uuid: string) {
  return db.selectFrom('jobs').select(['id', 'uuid', 'reference', 'branch_id', 'agency_id']).where('uuid', '=', uuid).where('agency_id', '=', agencyId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The tenant's phone numbers for an emergency alert. */
export function emergencyFacts(db: DbOrTrx, reportId: number) {
  return db
    .selectFrom('tenant_reports as r')
    .leftJoin('tenants as t', 't.id', 'r.tenant_id')
    .select([sql<string | null>`coalesce(t.mobile, t.phone)`.as('tenant_phone')])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
}

/**
 * Drops what an erased tenant wrote (docs/gdpr.md): the words of their guided reports and the
 * comments of their surveys; unanswered survey links stop working (expired now).
 */
export async function eraseTenantWords(db: DbOrTrx, tenantId: number, now: Date): Promise<void> {
  await db.updateTable('tenant_reports').set({ description: '' }).where('tenant_id', '=', tenantId).execute();
  await db.updateTable('job_surveys').set({ comment: null }).where('tenant_id', '=', tenantId).execute();
  await db.updateTable('job_surveys').set({ expires_at: now }).where('tenant_id', '=', tenantId).where('answered_at', 'is', null).where('expires_at', '>', now).execute();
}
