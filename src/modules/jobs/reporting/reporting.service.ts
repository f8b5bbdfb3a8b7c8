/**
 * Guided reporting (docs/tenant-reporting.md): the agency's triage flows (seeded with the UK set
 * on first use, each save a new version), the walk through a flow to the next question or an
 * outcome with the duplicates and recall candidates at the address, and the submitted report:
 * advice (a deflection, no job), an emergency (instruction at once, a priority 1 job and the
 * `report.emergency` event that alerts the branch's on-call contact), a job with its preset
 * trade, job type, priority and photos, or the report added to an open job of the same trade.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Trx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { addDays, londonToUtc } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { insertSystemNote } from '../job-notes/index.ts';
import { createJob, jobRef, type JobDto } from '../jobs/index.ts';
import { findTenantRef } from '../../people/tenants/index.ts';
import { checkTree, hasEmergency, JOB_TYPE_CODES, tradeCodes, walk, WalkError, type FlowTree, type OutcomeNode, type RecordedAnswer, type TreeProblem } from './flow-tree.ts';
import { UK_FLOWS } from './flows-catalogue.ts';
import * as repo from './reporting.repository.ts';
import type { FlowDto, ListReportsInput, ReportDto, SaveFlowInput, StepDto, SubmitInput, WalkInput } from './reporting.schemas.ts';
import { recallJob } from './job-links.service.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** Seeds the UK flows for an agency that has none (first use). */
async function ensureFlows(deps: AppDeps, agencyId: number): Promise<void> {
  if (await repo.hasFlows(deps.db, agencyId)) return;
  await deps.db.transaction().execute((trx) => repo.seedFlows(trx, agencyId, UK_FLOWS, deps.clock.now()));
}

/** The agency a caller reports in or edits (tenants: their own agency). @throws 403 for SysOps */
function agencyOf(auth: AuthContext): number {
  return writeAgency(auth);
}

function toFlowDto(r: repo.FlowRow): FlowDto {
  const tree = r.tree as FlowTree;
  return { uuid: r.uuid, code: r.code, name: r.name, version: r.version, position: r.position, emergency: hasEmergency(tree), tree: tree as FlowDto['tree'], updated_at: r.version_created_at.toISOString() };
}

/**
 * GET /api/reporting/flows: the agency's flows at their current versions (seeded on first use).
 * @throws 403 for callers of no agency
 */
export async function listFlows(deps: AppDeps, auth: AuthContext): Promise<FlowDto[]> {
  const agencyId = agencyOf(auth);
  await ensureFlows(deps, agencyId);
  return (await repo.listFlows(deps.db, agencyId)).map(toFlowDto);
}

/**
 * GET /api/reporting/flows/{code}: one flow at its current version or the version asked for.
 * @throws 404 'Flow not found' (unknown code or version)
 */
export async function getFlow(deps: AppDeps, auth: AuthContext, code: string, version?: number): Promise<FlowDto> {
  const agencyId = agencyOf(auth);
  await ensureFlows(deps, agencyId);
  const row = await repo.findFlow(deps.db, agencyId, code, version);
  if (!row) throw notFound('Flow');
  return toFlowDto(row);
}

/**
 * GET /api/reporting/flows/{code}/versions: every version, newest first.
 * @throws 404 'Flow not found'
 */
export async function listFlowVersions(deps: AppDeps, auth: AuthContext, code: string) {
  const flow = await getFlowRow(deps, auth, code);
  return (await repo.listVersions(deps.db, flow.id)).map((v) => ({
    version: v.version, name: v.name, created_at: v.created_at.toISOString(),
    created_by: v.created_by_uuid ? { uuid: v.created_by_uuid, name: v.created_by_name ?? '' } : null,
  }));
}

async function getFlowRow(deps: AppDeps, auth: AuthContext, code: string, version?: number) {
  const agencyId = agencyOf(auth);
  await ensureFlows(deps, agencyId);
  const row = await repo.findFlow(deps.db, agencyId, code, version);
  if (!row) throw notFound('Flow');
  return row;
}

/** The tree's problems, trade codes unknown to the agency included. */
async function treeProblems(deps: AppDeps, agencyId: number, tree: FlowTree): Promise<TreeProblem[]> {
  const problems = checkTree(tree);
  if (problems.length > 0) return problems;
  const codes = tradeCodes(tree);
  const known = new Set((await repo.tradeIdsByCode(deps.db, agencyId, codes)).map((t) => t.code));
  tree.nodes.forEach((n, i) => {
    if ((n.kind === 'job' || n.kind === 'emergency') && !known.has(n.job.trade)) problems.push({ path: `nodes[${i}].job.trade`, problem: `unknown trade "${n.job.trade}"` });
  });
  return problems;
}

/** 400 naming the first problem of a tree ("tree.nodes[3].options[1].next: no node "x""). */
function treeError(problems: TreeProblem[]): AppError {
  const p = problems[0]!;
  return new AppError('bad_request', `Invalid flow: tree.${p.path}: ${p.problem}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
}

/**
 * PUT /api/reporting/flows/{code}: saves the tree as the flow's next version (version 1 of a new
 * code). Reports keep the version they walked.
 * @returns the flow at its new version and whether the flow is new
 * @throws 400 naming the first problem of the tree, 403 for non-admins of no agency
 */
export async function saveFlow(deps: AppDeps, auth: AuthContext, actor: Actor, code: string, input: SaveFlowInput): Promise<{ flow: FlowDto; created: boolean }> {
  const agencyId = agencyOf(auth);
  await ensureFlows(deps, agencyId);
  const tree = input.tree as FlowTree;
  const problems = await treeProblems(deps, agencyId, tree);
  if (problems.length > 0) throw treeError(problems);
  const now = deps.clock.now();
  const created = await deps.db.transaction().execute(async (trx) => {
    let flow = await repo.lockFlow(trx, agencyId, code);
    const isNew = !flow;
    if (!flow) flow = { id: await repo.insertFlow(trx, { agency_id: agencyId, code, name: input.name, position: input.position ?? 1000, now }), current_version: 0 };
    const version = flow.current_version + 1;
    await repo.addVersion(trx, { flowId: flow.id, version, name: input.name, tree, position: input.position, userId: auth.userId, now });
    await recordActivity(trx, actor, now, { action: 'triage_flow.save', resourceType: 'triage_flow', resourceId: flow.id, agencyId, details: { code, version } });
    return isNew;
  });
  return { flow: await getFlow(deps, auth, code), created };
}

/** The walk's step as the wire shape. */
function stepOf(flow: { code: string; name: string; version: number }, answers: RecordedAnswer[], next: ReturnType<typeof walk>['next'], outcome: OutcomeNode | null): StepDto {
  return {
    flow,
    answers,
    next: next ? { id: next.id, text: next.text, help: next.help ?? null, options: next.options.map((o) => ({ id: o.id, label: o.label })) } : null,
    outcome: outcome
      ? {
          id: outcome.id, kind: outcome.kind, title: outcome.title,
          text: outcome.kind === 'advice' ? outcome.text : outcome.kind === 'job' ? (outcome.text ?? null) : null,
          instruction: outcome.kind === 'emergency' ? outcome.instruction : null,
          phone: outcome.kind === 'emergency' ? (outcome.phone ?? null) : null,
          job: outcome.kind === 'advice' ? null : { ...outcome.job },
        }
      : null,
    duplicates: [],
    recall_candidates: [],
  };
}

/** Walks, turning a misfit answer into 400 naming it. */
function walkOr400(tree: FlowTree, answers: Array<{ node: string; option: string }>) {
  try {
    return walk(tree, answers);
  } catch (e) {
    if (e instanceof WalkError) throw new AppError('bad_request', `Invalid or missing required parameter: answers[${e.index}] (${e.message})`);
    throw e;
  }
}

/**
 * POST /api/reporting/flows/preview: checks a draft tree and walks it through the answers,
 * writing nothing (the flow editor's preview).
 * @returns { problems, step }: step null while the tree has problems
 * @throws 400 for answers that do not fit a sound tree
 */
export async function previewFlow(deps: AppDeps, auth: AuthContext, input: { tree: unknown; answers: Array<{ node: string; option: string }> }) {
  const agencyId = agencyOf(auth);
  const tree = input.tree as FlowTree;
  const problems = await treeProblems(deps, agencyId, tree);
  if (problems.length > 0) return { problems, step: null };
  const w = walkOr400(tree, input.answers);
  return { problems: [], step: stepOf({ code: 'preview', name: 'Preview', version: 0 }, w.answers, w.next, w.outcome) };
}

/** The property of a report: the one named (the tenant's own, or the agency's for staff), else the tenant's only one. */
async function reportAddress(deps: AppDeps, auth: AuthContext, agencyId: number, addressUuid: string | undefined) {
  if (auth.tenantId !== null) {
    const own = await repo.tenantAddresses(deps.db, auth.tenantId);
    if (addressUuid === undefined) return own.length === 1 ? own[0]! : null;
    const a = own.find((x) => x.uuid === addressUuid);
    if (!a) throw notFound('Address');
    return a;
  }
  if (addressUuid === undefined) return null;
  const a = await repo.findAddress(deps.db, agencyId, addressUuid);
  if (!a) throw notFound('Address');
  return a;
}

/** Open jobs and recall candidates at the address for the outcome's trade. */
async function candidates(deps: AppDeps, agencyId: number, addressId: number, outcome: OutcomeNode) {
  if (outcome.kind === 'advice') return { duplicates: [], recall_candidates: [] };
  const [trade] = await repo.tradeIdsByCode(deps.db, agencyId, [outcome.job.trade]);
  if (!trade) return { duplicates: [], recall_candidates: [] };
  const { recall_days } = await repo.settingsOf(deps.db, agencyId);
  const since = new Date(deps.clock.now().getTime() - recall_days * 86_400_000);
  const open = await repo.openJobsAt(deps.db, agencyId, addressId, trade.id);
  const done = await repo.recentlyCompletedAt(deps.db, agencyId, addressId, trade.id, since);
  return {
    duplicates: open.map((j) => ({ uuid: j.uuid, reference: j.reference, title: j.title, status: j.status, at: j.created_at.toISOString() })),
    recall_candidates: done.map((j) => ({ uuid: j.uuid, reference: j.reference, title: j.title, status: j.status, at: j.completed_at!.toISOString() })),
  };
}

/**
 * POST /api/reporting/walk: the next question, or the outcome reached, for the answers given so
 * far; at a job or emergency outcome with a known property, the open jobs of the same trade there
 * (duplicates) and the jobs completed within the recall window (recall candidates).
 * Writes nothing.
 * @throws 400 naming the first answer that does not fit, 404 flow or address
 */
export async function walkFlow(deps: AppDeps, auth: AuthContext, input: WalkInput): Promise<StepDto> {
  const agencyId = agencyOf(auth);
  const flow = await getFlowRow(deps, auth, input.flow_code, input.version);
  const w = walkOr400(flow.tree as FlowTree, input.answers);
  const step = stepOf({ code: flow.code, name: flow.name, version: flow.version }, w.answers, w.next, w.outcome);
  const address = await reportAddress(deps, auth, agencyId, input.address_uuid);
  if (w.outcome && address) Object.assign(step, await candidates(deps, agencyId, address.id, w.outcome));
  return step;
}

/**
 * The job's description as people read it (docs/tenant-reporting.md): the flow's name, the
 * answers, the tenant's words and the photos asked for; never the flow's version (the report row
 * keeps it).
 */
function jobDescription(flowName: string, answers: RecordedAnswer[], words: string, photos: string[]): string {
  const lines = [`The tenant's answers (${flowName}):`, ...answers.map((a) => `- ${a.question} ${a.answer}`)];
  if (words.trim()) lines.push('', `In the tenant's words: ${words.trim()}`);
  if (photos.length > 0) lines.push('', `Photos asked for: ${photos.join('; ')}.`);
  return cutGraphemes(lines.join('\n'), 10_000);
}

/** Wire shape of a report row. */
export function toReportDto(r: repo.ReportRow): ReportDto {
  const node = (r.tree as FlowTree).nodes.find((n) => n.id === r.outcome_node);
  return {
    uuid: r.uuid,
    flow: { code: r.flow_code, name: r.flow_name, version: r.flow_version },
    outcome: r.outcome as ReportDto['outcome'],
    deflected: r.outcome === 'advice',
    outcome_title: node && node.kind !== 'question' ? node.title : r.outcome_node,
    answers: r.answers as RecordedAnswer[],
    description: r.description,
    job_uuid: r.job_uuid, job_reference: r.job_reference,
    tenant_uuid: r.tenant_uuid, tenant_name: r.tenant_name,
    address_uuid: r.address_uuid, address_line1: r.address_line1, postcode: r.postcode,
    created_at: r.created_at.toISOString(),
  };
}

/**
 * POST /api/reporting/reports: records a guided report walked to its outcome, in one transaction:
 * - advice: the report alone (a deflection, no job);
 * - emergency: a priority 1 job with the preset trade and job type, and `report.emergency`
 *   (the branch's on-call contact is e-mailed after commit); the instruction is returned;
 * - job: a job with the preset title, trade, job type and priority, the answers in its
 *   description; or, with add_to_job_uuid, the report added (as a note) to that open job of the
 *   same trade at the address; with recall_of_job_uuid, the job raised is a recall of that job.
 * @returns the report, the instruction or advice to show, and the photos asked for
 * @throws 400 answers that stop before an outcome or do not fit, a property needed but not
 *   chosen (address_uuid); 404 flow, address, tenant or a job that is not a duplicate or recall
 *   candidate; 403 for contractors and SysOps
 */
export async function submitReport(deps: AppDeps, auth: AuthContext, actor: Actor, input: SubmitInput) {
  if (auth.contractorId !== null) throw forbidden('Contractors cannot report repairs');
  const agencyId = agencyOf(auth);
  if (auth.tenantId !== null && (input.tenant_uuid !== undefined || input.branch_uuid !== undefined)) throw invalidParam(input.tenant_uuid !== undefined ? 'tenant_uuid' : 'branch_uuid');
  const flow = await getFlowRow(deps, auth, input.flow_code, input.version);
  const tree = flow.tree as FlowTree;
  const w = walkOr400(tree, input.answers);
  if (!w.outcome) throw new AppError('bad_request', `Invalid or missing required parameter: answers (the flow continues with "${w.next!.id}")`);
  const outcome = w.outcome;
  const address = await reportAddress(deps, auth, agencyId, input.address_uuid);
  let tenantId = auth.tenantId;
  if (input.tenant_uuid !== undefined) {
    const t = await findTenantRef(deps.db, input.tenant_uuid, agencyId);
    if (!t) throw notFound('Tenant');
    tenantId = t.id;
  }
  if (outcome.kind !== 'advice' && !address && auth.tenantId !== null) throw invalidParam('address_uuid');
  const cands = address ? await candidates(deps, agencyId, address.id, outcome) : { duplicates: [], recall_candidates: [] };
  if (input.add_to_job_uuid !== undefined && (outcome.kind !== 'job' || !cands.duplicates.some((d) => d.uuid === input.add_to_job_uuid))) throw notFound('Open job of this trade at the address');
  if (input.recall_of_job_uuid !== undefined && (outcome.kind === 'advice' || !cands.recall_candidates.some((d) => d.uuid === input.recall_of_job_uuid))) {
    throw notFound('Completed job of this trade at the address');
  }
  const words = input.description ?? '';
  const now = deps.clock.now();
  const photos = outcome.kind === 'advice' ? [] : outcome.job.photos;
  const reportUuid = newUuid();

  const id = await deps.db.transaction().execute(async (trx: Trx) => {
    let job: { id: number; uuid: string; reference: string; branch_id: number } | null = null;
    let kind: string = outcome.kind;
    let branchId: number | null = address?.branch_id ?? null;
    if (input.add_to_job_uuid !== undefined) {
      const d = cands.duplicates.find((x) => x.uuid === input.add_to_job_uuid)!;
      const row = await repo.jobIdByUuid(trx, agencyId, d.uuid);
      job = row!;
      kind = 'added_to_job';
      branchId = row!.branch_id;
      await insertSystemNote(trx, {
        uuid: newUuid(), jobId: row!.id, at: now,
        body: cutGraphemes(`Reported again through the guided report (${flow.name}): ${w.answers.map((a) => `${a.question} ${a.answer}`).join(' / ')}${words.trim() ? `. In the tenant's words: ${words.trim()}` : ''}`, 4000),
      });
    } else if (outcome.kind !== 'advice') {
      const [trade] = await repo.tradeIdsByCode(trx, agencyId, [outcome.job.trade]);
      if (!trade) throw conflict(`The flow's trade "${outcome.job.trade}" is no longer available; ask the agency to update the flow`);
      const dto: JobDto = await createJob(deps, trx, auth, actor, {
        title: outcome.job.title,
        priority: outcome.kind === 'emergency' ? 1 : outcome.job.priority,
        job_type_id: JOB_TYPE_CODES[outcome.job.job_type] ?? 1,
        trade_id: trade.id,
        description: jobDescription(flow.name, w.answers, words, photos),
        ...(address ? { address_uuid: address.uuid } : {}),
        ...(input.tenant_uuid !== undefined ? { tenant_uuid: input.tenant_uuid } : {}),
        ...(input.branch_uuid !== undefined ? { branch_uuid: input.branch_uuid } : {}),
      });
      const row = await repo.jobIdByUuid(trx, agencyId, dto.uuid);
      job = row!;
      branchId = row!.branch_id;
      if (input.recall_of_job_uuid !== undefined) {
        await recallJob(trx, actor, now, { recall: row!, originalUuid: input.recall_of_job_uuid, agencyId, reason: words.trim() || outcome.job.title, userId: auth.userId });
      }
    }
    const reportId = await repo.insertReport(trx, {
      uuid: reportUuid, agency_id: agencyId, branch_id: branchId, flow_id: flow.id, flow_version_id: flow.version_id, tenant_id: tenantId,
      reported_by_user_id: auth.userId, address_id: address?.id ?? null, answers: w.answers, outcome: kind, outcome_node: outcome.id,
      job_id: job?.id ?? null, description: words, created_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'report.create', resourceType: 'tenant_report', resourceId: reportId, agencyId, details: { flow: flow.code, version: flow.version, outcome: kind, job_id: job?.id ?? null },
    });
    if (outcome.kind === 'emergency' && job) {
      await emitEvent(trx, now, { name: 'report.emergency', agencyId, payload: { ...jobRef(job), report_id: reportId, flow_code: flow.code } });
    }
    return reportId;
  });
  const report = (await repo.findReport(deps.db, { id }, agencyId))!;
  return {
    report: toReportDto(report),
    instruction: outcome.kind === 'emergency' ? { title: outcome.title, text: outcome.instruction, phone: outcome.phone ?? null } : null,
    advice: outcome.kind === 'advice' ? { title: outcome.title, text: outcome.text } : null,
    photos_requested: input.add_to_job_uuid !== undefined ? [] : photos,
  };
}

/**
 * GET /api/reporting/reports: the agency's guided reports, newest first (SysOps: every agency).
 * @throws 400 to_date before from_date
 */
export async function listReports(deps: AppDeps, auth: AuthContext, q: ListReportsInput) {
  if (q.from_date && q.to_date && q.to_date < q.from_date) throw invalidParam('to_date');
  const { rows, total } = await repo.listReports(deps.db, readAgency(auth), {
    outcome: q.outcome, flowCode: q.flow_code,
    from: q.from_date ? londonToUtc(q.from_date) : undefined,
    to: q.to_date ? londonToUtc(addDays(q.to_date, 1)) : undefined,
    limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toReportDto), total };
}

/**
 * GET /api/reporting/reports/{uuid}: one report with the answers as given.
 * @throws 404 'Report not found' (outside the caller's agency too)
 */
export async function getReport(deps: AppDeps, auth: AuthContext, uuid: string): Promise<ReportDto> {
  const row = await repo.findReport(deps.db, { uuid }, readAgency(auth));
  if (!row) throw notFound('Report');
  return toReportDto(row);
}

/** GET /api/reporting/on-call: the on-call contact of each open branch (nulls where none is set). */
export async function listOnCall(deps: AppDeps, auth: AuthContext) {
  return (await repo.listOnCall(deps.db, agencyOf(auth))).map((r) => ({
    branch_uuid: r.branch_uuid, branch_name: r.branch_name, name: r.name, phone: r.phone, email: r.email, updated_at: r.updated_at ? r.updated_at.toISOString() : null,
  }));
}

/**
 * PUT /api/reporting/on-call/{branch_uuid}: sets the branch's on-call contact (told of emergencies).
 * @throws 404 'Branch not found' (closed, or of another agency)
 */
export async function setOnCall(deps: AppDeps, auth: AuthContext, actor: Actor, branchUuid: string, body: { name: string; phone: string; email: string }) {
  const agencyId = agencyOf(auth);
  const rows = await repo.listOnCall(deps.db, agencyId);
  const branch = rows.find((r) => r.branch_uuid === branchUuid);
  if (!branch) throw notFound('Branch');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.upsertOnCall(trx, { branch_id: branch.branch_id, agency_id: agencyId, name: body.name.trim(), phone: body.phone.trim(), email: body.email.trim().toLowerCase(), updated_at: now });
    await recordActivity(trx, actor, now, { action: 'branch.on_call.set', resourceType: 'branch', resourceId: branch.branch_id, agencyId });
  });
  return (await listOnCall(deps, auth)).find((r) => r.branch_uuid === branchUuid)!;
}

/** GET /api/reporting/settings: the recall window and survey link lifetime, in days. */
export async function getSettings(deps: AppDeps, auth: AuthContext) {
  return repo.settingsOf(deps.db, agencyOf(auth));
}

/**
 * PUT /api/reporting/settings: changes the fields given.
 * @throws 400 for an empty body
 */
export async function putSettings(deps: AppDeps, auth: AuthContext, actor: Actor, body: { recall_days?: number | undefined; survey_link_days?: number | undefined }) {
  if (body.recall_days === undefined && body.survey_link_days === undefined) throw invalidParam('body');
  const agencyId = agencyOf(auth);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const cur = await repo.settingsOf(trx, agencyId);
    await repo.upsertSettings(trx, agencyId, { recall_days: body.recall_days ?? cur.recall_days, survey_link_days: body.survey_link_days ?? cur.survey_link_days }, now);
    await recordActivity(trx, actor, now, { action: 'reporting.settings.update', resourceType: 'agency', resourceId: agencyId, agencyId, details: { ...body } });
  });
  return repo.settingsOf(deps.db, agencyId);
}
