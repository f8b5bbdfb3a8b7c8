/**
 * Which moves of a job a caller may make from the page (docs/jobs.md "Lifecycle"): the status
 * list of GET /api/jobs/statuses gives, for each status, the allowed next statuses with the
 * parties that may make each move and through which endpoint (`via`). The job page shows only the
 * moves that are legal for the caller's party as buttons.
 */

/** One entry of a status's `allowed_next`. */
export interface NextStatus {
  status_id: number;
  name: string;
  parties: string[];
  via: string;
  sets: string | null;
}

/** A status of GET /api/jobs/statuses. */
export interface JobStatus {
  ID: number;
  name: string;
  is_open: boolean;
  allowed_next: NextStatus[];
}

/** The party a role acts as in the lifecycle table. */
export type Party = 'staff' | 'contractor' | 'tenant';

/** Contractor and tenant roles act as themselves; every other role is staff. */
export function partyOf(role: string): Party {
  const r = role.toLowerCase();
  if (r === 'contractor') return 'contractor';
  if (r === 'tenant') return 'tenant';
  return 'staff';
}

export interface JobState {
  status_id: number;
  on_hold_from_status_id?: number | null;
}

/**
 * The moves the page offers as buttons.
 * @returns `transition` moves (POST /api/jobs/{uuid}/transitions) and `resume` moves back to the
 *   status an On hold job came from; assignment and decline moves have their own controls, and
 *   Invoiced comes from issuing the invoice (the invoice page), so it is never offered
 */
export function legalMoves(statuses: JobStatus[], job: JobState, party: Party): NextStatus[] {
  const current = statuses.find((s) => s.ID === job.status_id);
  if (!current) return [];
  return current.allowed_next.filter((n) => {
    if (!n.parties.includes(party)) return false;
    // A Completed job becomes Invoiced when its invoice is issued (docs/jobs.md "Invoiced and
    // Closed"), never by a button: the API refuses the move without an issued invoice, and issuing
    // one makes it by itself.
    if (n.name === 'Invoiced' && n.via === 'transition') return false;
    if (n.via === 'resume') return job.on_hold_from_status_id == null || n.status_id === job.on_hold_from_status_id;
    return n.via === 'transition';
  });
}

/** True when the caller may assign a contractor now (a staff move `via: assignment`). */
export function canAssign(statuses: JobStatus[], job: JobState, party: Party): boolean {
  const current = statuses.find((s) => s.ID === job.status_id);
  return !!current?.allowed_next.some((n) => n.via === 'assignment' && n.parties.includes(party));
}

/** True when the caller may decline the assignment (the assigned contractor, `via: decline`). */
export function canDecline(statuses: JobStatus[], job: JobState, party: Party): boolean {
  const current = statuses.find((s) => s.ID === job.status_id);
  return !!current?.allowed_next.some((n) => n.via === 'decline' && n.parties.includes(party));
}

/** The label of a move's button: "Approve", "Cancel job", "Mark attended" ... */
export function moveLabel(move: NextStatus): string {
  const labels: Record<string, string> = {
    'Awaiting approval': 'Ask for approval',
    Approved: 'Approve',
    'In progress': 'Mark attended',
    Completed: 'Mark completed',
    Invoiced: 'Mark invoiced',
    Closed: 'Close job',
    Cancelled: 'Cancel job',
    'On hold': 'Put on hold',
  };
  if (move.via === 'resume') return `Resume (${move.name})`;
  return labels[move.name] ?? `Move to ${move.name}`;
}
