/**
 * Demo step (docs/demo-data.md): status history rows for the demo jobs, derived from the status and
 * the date fields each job already has (created -> Reported, approved_at -> Approved, assigned_at
 * -> Assigned, or Scheduled when the job has a visit date, attended_at -> In progress,
 * completed_at -> Completed, invoiced_at -> Invoiced, closed_at -> Closed, cancelled_at ->
 * Cancelled; Awaiting approval and On hold, which have no date field, just after the last
 * event). Every derived move is one of lifecycle.ts's. Deterministic: no random choices.
 */
import { STATUS } from '../../modules/jobs/jobs/index.ts';
import type { DemoContext } from './context.ts';
import { insertRows, jobsWithoutHistory, updateById } from '../../db/seed.repository.ts';

export interface JobDates {
  status_id: number;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  assigned_at: Date | null;
  scheduled_for: Date | null;
  attended_at: Date | null;
  completed_at: Date | null;
  invoiced_at: Date | null;
  closed_at: Date | null;
  cancelled_at: Date | null;
}

export interface DerivedMove {
  from: number | null;
  to: number;
  at: Date;
}

const MINUTE_MS = 60_000;

/**
 * The moves that explain a job's status and dates, oldest first.
 * @param now reference time; no move is placed after it
 */
export function deriveHistory(job: JobDates, now: Date): DerivedMove[] {
  const events: Array<{ to: number; at: Date }> = [];
  const push = (to: number, at: Date | null) => {
    if (at !== null) events.push({ to, at: new Date(at) });
  };
  push(STATUS.approved, job.approved_at);
  if (job.assigned_at !== null) {
    // An assignment with a visit date goes straight to Scheduled (lifecycle: Approved -> Scheduled).
    const scheduled = job.scheduled_for !== null && job.status_id !== STATUS.assigned;
    push(scheduled ? STATUS.scheduled : STATUS.assigned, job.assigned_at);
  }
  push(STATUS.inProgress, job.attended_at);
  push(STATUS.completed, job.completed_at);
  push(STATUS.invoiced, job.invoiced_at);
  push(STATUS.closed, job.closed_at);
  push(STATUS.cancelled, job.cancelled_at);
  events.sort((a, b) => a.at.getTime() - b.at.getTime());

  const moves: DerivedMove[] = [{ from: null, to: STATUS.reported, at: new Date(job.created_at) }];
  const last = () => moves[moves.length - 1]!;
  const soonAfter = (d: Date) => new Date(Math.min(d.getTime() + 10 * MINUTE_MS, Math.max(now.getTime(), d.getTime())));
  if (job.status_id === STATUS.awaitingApproval) moves.push({ from: STATUS.reported, to: STATUS.awaitingApproval, at: soonAfter(job.created_at) });
  for (const e of events) moves.push({ from: last().to, to: e.to, at: e.at });
  if (job.status_id === STATUS.onHold) {
    const at = new Date(Math.max(last().at.getTime(), Math.min(new Date(job.updated_at).getTime(), now.getTime())));
    moves.push({ from: last().to, to: STATUS.onHold, at: at.getTime() === last().at.getTime() ? soonAfter(at) : at });
  }
  if (last().to !== job.status_id) moves.push({ from: last().to, to: job.status_id, at: soonAfter(last().at) });
  return moves;
}

/**
 * Writes history rows for every job that has none yet (the demo jobs), and sets the hold origin of
 * On hold jobs. The creation is by the reporter, later moves by the owning agent (or nobody).
 */
export async function jobsHistoryStep(ctx: DemoContext): Promise<void> {
  const { trx, now } = ctx;
  const jobs = await jobsWithoutHistory(trx);
  const rows: Array<{ job_id: number; from_status_id: number | null; to_status_id: number; by_user_id: number | null; note: string | null; created_at: Date }> = [];
  for (const job of jobs) {
    const moves = deriveHistory(job, now);
    for (const m of moves) {
      rows.push({ job_id: job.id, from_status_id: m.from, to_status_id: m.to, by_user_id: m.from === null ? job.reported_by_user_id : job.agent_user_id, note: null, created_at: m.at });
    }
    if (job.status_id === STATUS.onHold) {
      const before = moves[moves.length - 1]!.from;
      await updateById(trx, 'jobs', job.id, { on_hold_from_status_id: before });
    }
  }
  for (let i = 0; i < rows.length; i += 500) await insertRows(trx, 'job_status_history', rows.slice(i, i + 500));
  ctx.log(`demo: status history for ${jobs.length} jobs (${rows.length} rows)`);
}
