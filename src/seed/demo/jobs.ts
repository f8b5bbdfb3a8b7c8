/**
 * The 1,000 demo jobs (issue "Foundation" item 4): spread over the past year in every status, with
 * titles, priorities, job types, trades, costs and dates consistent with each other; references
 * JOB-000001.. per agency in date order, and agency_counters ('job_reference') set to the last
 * number so jobs created through the API continue the sequence.
 */
import type { Insertable } from 'kysely';
import type { JobTable } from '../../db/schema.ts';
import { chunks, type DemoAddress } from './addresses.ts';
import { pickWeighted, type DemoContext, type Rng } from './context.ts';
import { ACCESS_NOTES, JOB_TEMPLATES, type JobTemplate } from './job-templates.ts';
import { STATUS, buildTimeline, lastTouched, statusForAge, type Timeline } from './job-timeline.ts';
import type { DemoContractor, DemoPeople, DemoTenant } from './people.ts';
import { DAY, MINUTE, dayStart, ukLocal, weekday } from './time.ts';
import { insertReturning, insertRows } from '../../db/seed.repository.ts';

export const DEMO_JOB_COUNT = 1000;

interface JobDraft {
  template: JobTemplate;
  address: DemoAddress;
  tenant: DemoTenant | null;
  contractor: DemoContractor | null;
  tl: Timeline;
  description: string;
  estimate: number | null;
  agreed: number | null;
  reportedBy: number | null;
  agent: number | null;
}

/** Report hour weights (UK local 0..23): mostly office hours, a few evening and night reports. */
const HOUR_WEIGHTS = [1, 0, 0, 0, 0, 0, 1, 3, 8, 10, 10, 9, 8, 8, 9, 8, 8, 7, 6, 5, 4, 3, 2, 1];

/** When a job was reported: 1..364 days before `now`, fewer at weekends, a few more recently. */
function drawCreated(rng: Rng, now: number): number {
  let day = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    day = dayStart(now) - (rng.chance(0.08) ? rng.int(1, 21) : rng.int(1, 364)) * DAY;
    if (!(weekday(day) === 0 || weekday(day) === 6) || rng.chance(0.45)) break;
  }
  const hour = pickWeighted(rng, HOUR_WEIGHTS.map((w, h) => ({ w, h })), (x) => x.w).h;
  return ukLocal(day, hour, rng.int(0, 59));
}

/** Seasonal weighting: heating and damp in winter, wasps and gardens in summer. */
function seasonFactor(template: JobTemplate, created: number): number {
  const month = new Date(created).getUTCMonth();
  if (template.season === 'winter') return month >= 9 || month <= 2 ? 2.5 : 0.4;
  if (template.season === 'summer') return month >= 4 && month <= 8 ? 2.5 : 0.2;
  return 1;
}

/** Pounds in [min, max] rounded to £5, in pence. */
function estimatePence(rng: Rng, [min, max]: [number, number]): number {
  return Math.round(rng.int(min, max) / 5) * 500;
}

/** A contractor of the job's agency with its trade; firms of the same area are preferred. */
function chooseContractor(rng: Rng, people: DemoPeople, address: DemoAddress, trade: string): DemoContractor {
  const options = people.contractors.filter((c) => c.agencyId === address.agencyId && c.trades.includes(trade));
  if (options.length === 0) throw new Error(`demo: no contractor for ${trade}`);
  return pickWeighted(rng, options, (c) => (c.region === address.region ? 1 : 0.05) * (c === people.fletcher ? 2 : 1));
}

/** Draws one job. */
function draftJob(ctx: DemoContext, people: DemoPeople, addresses: DemoAddress[], addressWeight: Map<number, number>, created: number, status?: number): JobDraft {
  const { rng } = ctx;
  const now = ctx.now.getTime();
  const template = pickWeighted(rng, JOB_TEMPLATES, (x) => x.weight * seasonFactor(x, created));
  const occupied = (a: DemoAddress) => (people.tenantsByAddress.get(a.id)?.length ?? 0) > 0;
  const address = pickWeighted(rng, addresses, (a) => addressWeight.get(a.id)! * (template.void ? (occupied(a) ? 1 : 4) : occupied(a) ? 3 : 0.5));
  const living = (people.tenantsByAddress.get(address.id) ?? []).filter((x) => x.since <= created);
  const tenant = template.void || living.length === 0 ? null : rng.pick(living);
  const ageDays = (now - created) / DAY;
  const finalStatus = status ?? statusForAge(rng, ageDays);
  const estimate = estimatePence(rng, template.cost);
  const tl = buildTimeline(rng, finalStatus, created, template.priority, template.cost[1] >= 900 && estimate >= 80_000, template.jobType === 5, now);
  const contractor = tl.assignedStage ? chooseContractor(rng, people, address, template.trade) : null;
  const withEstimate = finalStatus !== STATUS.reported && (tl.approvedStage || finalStatus === STATUS.awaitingApproval || rng.chance(0.5));
  const agreed = tl.approvedStage ? Math.min(240_000, Math.max(8_500, Math.round((estimate * (0.9 + rng.next() * 0.25)) / 100) * 100)) : null;
  const note = template.void ? ACCESS_NOTES[2]! : rng.pick(ACCESS_NOTES);
  const description = `${rng.pick(template.descriptions)}${rng.chance(0.35) ? ` ${note}` : ''}`;
  const agent = address.branchId === ctx.ids.branches.leeds && rng.chance(0.6) ? ctx.ids.users['agent@northwind.test'] ?? null : null;
  return { template, address, tenant, contractor, tl, description, estimate: withEstimate ? estimate : null, agreed, reportedBy: null, agent };
}

/**
 * Moves eight Leeds jobs of assorted statuses to Emily Clarke (tenant@northwind.test), most of
 * them reported by her through the portal; her upcoming visit goes to Fletcher Gas & Heating.
 */
function giveJobsToEmily(ctx: DemoContext, people: DemoPeople, drafts: JobDraft[], emilyAddress: DemoAddress): void {
  const wanted = [STATUS.closed, STATUS.closed, STATUS.closed, STATUS.invoiced, STATUS.completed, STATUS.inProgress, STATUS.scheduled, STATUS.reported];
  const taken = new Set<JobDraft>();
  const userId = ctx.ids.users['tenant@northwind.test'] ?? null;
  for (const status of wanted) {
    const fits = (d: JobDraft) => !taken.has(d) && d.tl.status === status && d.address.branchId === emilyAddress.branchId && !d.template.void;
    const fletcherFits = (d: JobDraft) => fits(d) && people.fletcher.trades.includes(d.template.trade);
    const candidates = drafts.filter(status === STATUS.scheduled && drafts.some(fletcherFits) ? fletcherFits : fits);
    if (candidates.length === 0) continue;
    const job = ctx.rng.pick(candidates);
    taken.add(job);
    job.address = emilyAddress;
    job.tenant = people.emily;
    job.reportedBy = ctx.rng.chance(0.8) ? userId : null;
    if (status === STATUS.scheduled && people.fletcher.trades.includes(job.template.trade)) job.contractor = people.fletcher;
  }
}

/** Replaces recent jobs with one of each status the draw did not produce (every status is shown). */
function ensureEveryStatus(ctx: DemoContext, people: DemoPeople, addresses: DemoAddress[], weights: Map<number, number>, drafts: JobDraft[]): void {
  const present = new Set(drafts.map((d) => d.tl.status));
  let index = drafts.length - 1;
  for (const status of Object.values(STATUS)) {
    if (present.has(status)) continue;
    const created = ctx.now.getTime() - ctx.rng.int(3, 20) * DAY - ctx.rng.int(0, 600) * MINUTE;
    drafts[index--] = draftJob(ctx, people, addresses, weights, created, status);
  }
}

const at = (ms: number | null) => (ms === null ? null : new Date(ms));

/** Creates the jobs; records their ids (in reference order) in ctx.ids.jobs. */
export async function createJobs(ctx: DemoContext, people: DemoPeople, addresses: DemoAddress[]): Promise<void> {
  const { rng, trx, ids } = ctx;
  const now = ctx.now.getTime();
  const addressWeight = new Map(addresses.map((a) => [a.id, 0.3 + rng.next() * 1.7]));
  addressWeight.set(people.emily.addressIds[0]!, 0.25); // she gets eight chosen jobs below
  const drafts: JobDraft[] = [];
  for (let i = 0; i < DEMO_JOB_COUNT; i++) drafts.push(draftJob(ctx, people, addresses, addressWeight, drawCreated(rng, now)));
  ensureEveryStatus(ctx, people, addresses, addressWeight, drafts);
  giveJobsToEmily(ctx, people, drafts, addresses.find((a) => a.id === people.emily.addressIds[0])!);

  const ordered = drafts.map((d, i) => ({ d, i })).sort((a, b) => a.d.tl.created - b.d.tl.created || a.i - b.i).map((x) => x.d);
  const counters = new Map<number, number>();
  const rows: Array<Insertable<JobTable>> = ordered.map((d) => {
    const number = (counters.get(d.address.agencyId) ?? 0) + 1;
    counters.set(d.address.agencyId, number);
    const { tl } = d;
    return {
      uuid: ctx.uuid(),
      agency_id: d.address.agencyId,
      branch_id: d.address.branchId,
      reference: `JOB-${String(number).padStart(6, '0')}`,
      title: d.template.title,
      description: d.description,
      priority: d.template.priority,
      status_id: tl.status,
      job_type_id: d.template.jobType,
      address_id: d.address.id,
      tenant_id: d.tenant?.id ?? null,
      contractor_id: d.contractor?.id ?? null,
      trade_id: ids.trades[d.template.trade]!,
      agent_user_id: d.agent,
      time_range_id: tl.timeRangeId,
      reported_by_user_id: d.reportedBy,
      estimated_cost_pence: d.estimate,
      agreed_cost_pence: d.agreed,
      created_at: new Date(tl.created),
      updated_at: new Date(lastTouched(tl, now)),
      approved_at: at(tl.approved),
      assigned_at: at(tl.assigned),
      scheduled_for: at(tl.scheduled),
      attended_at: at(tl.attended),
      completed_at: at(tl.completed),
      invoiced_at: at(tl.invoiced),
      closed_at: at(tl.closed),
      cancelled_at: at(tl.cancelled),
    };
  });
  const idByUuid = new Map<string, number>();
  for (const part of chunks(rows, 250)) {
    for (const r of await insertReturning(trx, 'jobs', part)) idByUuid.set(r.uuid, r.id);
  }
  ids.jobs = rows.map((r) => idByUuid.get(r.uuid)!);
  await insertRows(trx, 'agency_counters', [...counters].map(([agencyId, value]) => ({ agency_id: agencyId, name: 'job_reference', value })));

  // A little history: the jobs Emily reported through the tenant portal.
  const emilyUser = ids.users['tenant@northwind.test'];
  const reported = rows.map((r, i) => ({ r, id: ids.jobs[i]! })).filter((x) => x.r.reported_by_user_id != null);
  if (emilyUser !== undefined && reported.length > 0) {
    await insertRows(trx, 'activity_log', reported.map(({ r, id }) => ({
      agency_id: r.agency_id, user_id: emilyUser, user_name: 'Emily Clarke', action: 'job.create', resource_type: 'job',
      resource_id: id, ip_address: '192.0.2.24', details: JSON.stringify({ reference: r.reference }), created_at: r.created_at,
    })));
  }
  ctx.log(`demo: ${rows.length} jobs`);
}
