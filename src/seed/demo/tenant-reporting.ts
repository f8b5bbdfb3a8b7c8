/**
 * Demo step of tenant self-service (docs/tenant-reporting.md): the UK triage flows for both
 * agencies (Northwind's heating flow at version 2), on-call contacts for every branch, guided
 * reports over the last 60 days (deflected by self-help advice, emergencies, jobs and reports added
 * to an open job; Emily Clarke's among them), satisfaction surveys on completed jobs with a tenant
 * (most answered, 1 to 5 with comments, some waiting), and recalls: a later job of the same trade
 * at the same property reported within 28 days of a completed repair, linked to it. Deterministic: ctx.uuid(), ctx.rng.
 */
import { GAS_EMERGENCY_NUMBER, UK_FLOWS } from '../../modules/jobs/reporting/index.ts';
import type { DemoContext } from './context.ts';
import {
  branchesOf, completedTenantJobs, firstJobOfTradeBetween, insertId, insertRows, latestJobAt, tenantHomes, tenantUserIds,
} from '../../db/seed.repository.ts';

const DAY = 86_400_000;

/** Answer paths that end in each outcome, per flow: [flow code, answers, outcome node, outcome]. */
const PATHS: Array<[string, Array<[string, string]>, string, 'advice' | 'emergency' | 'job']> = [
  ['heating', [['what', 'none'], ['pressure', 'yes'], ['top_up', 'yes']], 'advice_pressure', 'advice'],
  ['heating', [['what', 'heating'], ['radiators', 'yes']], 'advice_heating', 'advice'],
  ['electrics', [['what', 'part'], ['trip', 'yes']], 'advice_trip', 'advice'],
  ['electrics', [['what', 'all'], ['power_cut', 'yes']], 'advice_power_cut', 'advice'],
  ['leaks', [['what', 'blocked'], ['blocked', 'yes']], 'advice_blocked', 'advice'],
  ['damp_mould', [['leak', 'no'], ['size', 'no']], 'advice_mould', 'advice'],
  ['appliances', [['ours', 'no']], 'advice_own', 'advice'],
  ['pests', [['what', 'insects']], 'advice_insects', 'advice'],
  ['doors_locks', [['secure', 'locked_out']], 'advice_locked_out', 'advice'],
  ['gas_smell', [], 'gas_emergency', 'emergency'],
  ['leaks', [['what', 'burst']], 'emergency_flood', 'emergency'],
  ['heating', [['what', 'none'], ['pressure', 'yes'], ['top_up', 'no']], 'job_boiler_pressure', 'job'],
  ['leaks', [['what', 'drip'], ['isolate', 'yes']], 'job_drip', 'job'],
  ['damp_mould', [['leak', 'no'], ['size', 'yes']], 'job_mould', 'job'],
  ['electrics', [['what', 'part'], ['trip', 'no']], 'job_trip', 'job'],
];

const COMMENTS = [
  'Quick and tidy, thank you.', 'Came on the day booked and explained what was wrong.', 'Fine.', 'Had to chase twice before anyone came.',
  'Fixed, but left a mess in the kitchen.', 'Very polite engineer.', null, null,
];

type Tree = (typeof UK_FLOWS)[number]['tree'];

/** The recorded answers of a path (question and option texts as in the tree). */
function recorded(tree: Tree, answers: Array<[string, string]>) {
  return answers.map(([node, option]) => {
    const q = tree.nodes.find((n) => n.id === node)!;
    const o = q.kind === 'question' ? q.options.find((x) => x.id === option)! : { label: option };
    return { node, question: q.kind === 'question' ? q.text : node, option, answer: o.label };
  });
}

/** Writes the tenant self-service records of both demo agencies. */
export async function tenantReportingStep(ctx: DemoContext): Promise<void> {
  const { trx, ids, rng } = ctx;
  const since = new Date(ctx.now.getTime() - 60 * DAY);
  for (const [name, agencyId] of Object.entries(ids.agencies)) {
    // Flows, version 1 from 90 days ago; Northwind's heating flow edited into version 2.
    const flows = new Map<string, { id: number; versionId: number; name: string; tree: Tree }>();
    for (const [i, f] of UK_FLOWS.entries()) {
      const created = new Date(ctx.now.getTime() - 90 * DAY);
      const edit = name === 'northwind' && f.code === 'heating';
      const flowId = await insertId(trx, 'triage_flows', {
        uuid: ctx.uuid(), agency_id: agencyId, code: f.code, name: f.name, position: (i + 1) * 10, current_version: edit ? 2 : 1, created_at: created, updated_at: created,
      });
      let versionId = await insertId(trx, 'triage_flow_versions', { flow_id: flowId, version: 1, name: f.name, tree: JSON.stringify(f.tree), created_by_user_id: null, created_at: created });
      if (edit) {
        const tree = structuredClone(f.tree);
        const pressure = tree.nodes.find((n) => n.id === 'pressure');
        if (pressure?.kind === 'question') pressure.help = 'Look at the pressure gauge on the front of the boiler (or its display). Our boilers are mostly Worcester Bosch: the gauge is under the flap.';
        const edited = new Date(ctx.now.getTime() - 20 * DAY);
        versionId = await insertId(trx, 'triage_flow_versions', { flow_id: flowId, version: 2, name: f.name, tree: JSON.stringify(tree), created_by_user_id: null, created_at: edited });
      }
      flows.set(f.code, { id: flowId, versionId, name: f.name, tree: f.tree });
    }
    // On-call contacts.
    const branches = await branchesOf(trx, agencyId);
    for (const [i, b] of branches.entries()) {
      await insertRows(trx, 'branch_on_call', [{
        branch_id: b.id, agency_id: agencyId, name: ['Sam Patel', 'Gemma Wood', 'Ravi Shah'][i % 3]!, phone: `07700 900${String(310 + i)}`,
        email: `oncall.${b.name.toLowerCase().replace(/[^a-z]+/g, '')}@${name}.test`, updated_at: since,
      }]);
    }
    // Guided reports by tenants at their addresses.
    const tenants = await tenantHomes(trx, agencyId, 40);
    const userOf = await tenantUserIds(trx, agencyId);
    const count = name === 'northwind' ? 36 : 14;
    for (let i = 0; i < count && tenants.length > 0; i++) {
      const who = i < 3 && name === 'northwind' ? tenants.find((x) => x.tenant_id === ids.demoTenantId) ?? tenants[0]! : rng.pick(tenants);
      // Two in three reports end in advice: the deflections.
      const path = rng.chance(0.62) ? rng.pick(PATHS.filter((p) => p[3] === 'advice')) : rng.pick(PATHS.filter((p) => p[3] !== 'advice'));
      const [code, answers, node, outcome] = path;
      const flow = flows.get(code)!;
      const at = new Date(since.getTime() + Math.floor(((i + rng.next()) / count) * 60 * DAY));
      let jobId: number | null = null;
      let kind: string = outcome;
      if (outcome !== 'advice') {
        const job = await latestJobAt(trx, agencyId, who.address_id);
        if (!job) continue;
        jobId = job.id;
        if (outcome === 'job' && rng.chance(0.2)) kind = 'added_to_job';
      }
      await insertRows(trx, 'tenant_reports', [{
        uuid: ctx.uuid(), agency_id: agencyId, branch_id: who.branch_id, flow_id: flow.id, flow_version_id: flow.versionId, tenant_id: who.tenant_id,
        reported_by_user_id: userOf.get(who.tenant_id) ?? null, address_id: who.address_id, answers: JSON.stringify(recorded(flow.tree, answers)), outcome: kind,
        outcome_node: node, job_id: jobId, description: outcome === 'emergency' && code === 'gas_smell' ? `Strong smell by the meter; called ${GAS_EMERGENCY_NUMBER}.` : '', created_at: at,
      }]);
    }
    // Surveys on completed jobs with a tenant and a contractor; recalls on a few of them.
    const done = await completedTenantJobs(trx, agencyId, name === 'northwind' ? 40 : 15);
    // Recalls: a later job at the same property, of the same trade, reported within 28 days of the
    // completion (the demo's 1,000 jobs stay 1,000: existing jobs are linked, none added).
    let recalls = 0;
    const linked = new Set<number>();
    for (const j of done) {
      const completed = new Date(j.completed_at!);
      const later = recalls < (name === 'northwind' ? 5 : 2) && j.address_id !== null && j.trade_id !== null
        ? await firstJobOfTradeBetween(trx, j.address_id, j.trade_id, completed, new Date(completed.getTime() + 28 * DAY), j.id)
        : undefined;
      const recall = later !== undefined && !linked.has(later.id);
      const answered = recall || rng.chance(0.75);
      const rating = recall ? rng.int(1, 2) : rng.int(3, 5);
      await insertRows(trx, 'job_surveys', [{
        uuid: ctx.uuid(), agency_id: agencyId, job_id: j.id, tenant_id: j.tenant_id!, contractor_id: j.contractor_id, nonce: ctx.uuid().replace(/-/g, ''),
        expires_at: new Date(completed.getTime() + 14 * DAY), answered_at: answered ? new Date(completed.getTime() + rng.int(2, 60) * 3_600_000) : null,
        rating: answered ? rating : null, comment: answered ? (recall ? 'The same fault came back within days.' : rng.pick(COMMENTS)) : null, created_at: completed,
      }]);
      if (!recall || !later) continue;
      recalls++;
      linked.add(later.id);
      await insertRows(trx, 'job_recalls', [{
        job_id: later.id, original_job_id: j.id, agency_id: agencyId, reason: 'The same fault came back after the repair.', by_user_id: null, created_at: new Date(later.created_at),
      }]);
    }
  }
  ctx.log('tenant reporting: triage flows, on-call contacts, guided reports, surveys and recalls');
}
