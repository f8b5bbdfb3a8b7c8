/**
 * The job lifecycle in ONE place (docs/jobs.md): the statuses, every allowed move, the date
 * field each move sets, who may make it and through which endpoint. Every status change in the
 * service is checked against MOVES; docs/jobs.md prints the same table.
 */

export const STATUS = {
  reported: 1,
  awaitingApproval: 2,
  approved: 3,
  assigned: 4,
  scheduled: 5,
  inProgress: 6,
  completed: 7,
  invoiced: 8,
  closed: 9,
  cancelled: 10,
  onHold: 11,
} as const;

/** Names of the seeded statuses (table job_statuses), for messages without a query. */
export const STATUS_NAMES: Record<number, string> = {
  1: 'Reported',
  2: 'Awaiting approval',
  3: 'Approved',
  4: 'Assigned',
  5: 'Scheduled',
  6: 'In progress',
  7: 'Completed',
  8: 'Invoiced',
  9: 'Closed',
  10: 'Cancelled',
  11: 'On hold',
};

/** Statuses from which a job may be put On hold (the open ones). */
export const HOLDABLE: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** Who makes a move: staff (SysOps, admin, agent, API and custom staff roles), the job's contractor, the job's tenant. */
export type Party = 'staff' | 'contractor' | 'tenant' | 'landlord';

/**
 * The endpoint that performs a move: `transition` (POST /api/jobs/{uuid}/transitions, and
 * DELETE /api/jobs/{uuid} for Cancelled), `assignment` (POST .../assignment), `decline`
 * (POST .../assignment/decline), `resume` (a transition out of On hold, only back to the status
 * the job was put on hold from), `booking` (POST .../assignment/booking: the assigned contractor books
 * or moves its visit, also by works-order link, docs/works-orders.md; the tenant picking one of the
 * contractor's free slots, POST .../visit/choice), `missed` (POST .../visit/missed: a booked visit
 * was missed, docs/tenant-reporting.md "Booking the visit").
 */
export type Via = 'transition' | 'assignment' | 'decline' | 'resume' | 'booking' | 'missed';

/** Job date columns a move may set. */
export type DateField = 'approved_at' | 'assigned_at' | 'attended_at' | 'completed_at' | 'invoiced_at' | 'closed_at' | 'cancelled_at';

export interface Move {
  from: number;
  to: number;
  parties: readonly Party[];
  via: Via;
  /** Column set to the time of the move, or null. */
  sets: DateField | null;
}

const S = STATUS;
const STAFF: readonly Party[] = ['staff'];
const WORKERS: readonly Party[] = ['staff', 'contractor'];

const m = (from: number, to: number, parties: readonly Party[], via: Via, sets: DateField | null): Move => ({ from, to, parties, via, sets });

/** Every legal move. A pair not listed here is 409 "Cannot move a job from X to Y". */
export const MOVES: readonly Move[] = [
  m(S.reported, S.awaitingApproval, STAFF, 'transition', null),
  m(S.reported, S.approved, STAFF, 'transition', 'approved_at'),
  m(S.reported, S.cancelled, ['staff', 'tenant'], 'transition', 'cancelled_at'),
  m(S.awaitingApproval, S.approved, STAFF, 'transition', 'approved_at'),
  m(S.awaitingApproval, S.cancelled, STAFF, 'transition', 'cancelled_at'),
  m(S.approved, S.assigned, STAFF, 'assignment', 'assigned_at'),
  m(S.approved, S.scheduled, STAFF, 'assignment', 'assigned_at'),
  m(S.approved, S.cancelled, STAFF, 'transition', 'cancelled_at'),
  m(S.assigned, S.assigned, STAFF, 'assignment', 'assigned_at'),
  m(S.assigned, S.scheduled, STAFF, 'assignment', 'assigned_at'),
  m(S.assigned, S.scheduled, ['contractor', 'tenant'], 'booking', null),
  m(S.assigned, S.approved, ['contractor'], 'decline', null),
  m(S.assigned, S.inProgress, WORKERS, 'transition', 'attended_at'),
  m(S.assigned, S.cancelled, STAFF, 'transition', 'cancelled_at'),
  m(S.scheduled, S.scheduled, STAFF, 'assignment', 'assigned_at'),
  m(S.scheduled, S.assigned, STAFF, 'assignment', 'assigned_at'),
  m(S.scheduled, S.scheduled, ['contractor', 'tenant'], 'booking', null),
  m(S.scheduled, S.approved, ['contractor'], 'decline', null),
  m(S.scheduled, S.assigned, ['staff', 'contractor', 'tenant'], 'missed', null),
  m(S.scheduled, S.inProgress, WORKERS, 'transition', 'attended_at'),
  m(S.scheduled, S.cancelled, STAFF, 'transition', 'cancelled_at'),
  m(S.inProgress, S.completed, WORKERS, 'transition', 'completed_at'),
  m(S.inProgress, S.cancelled, STAFF, 'transition', 'cancelled_at'),
  m(S.completed, S.invoiced, STAFF, 'transition', 'invoiced_at'),
  m(S.completed, S.closed, STAFF, 'transition', 'closed_at'),
  m(S.invoiced, S.closed, STAFF, 'transition', 'closed_at'),
  ...HOLDABLE.map((from) => m(from, S.onHold, STAFF, 'transition', null)),
  ...HOLDABLE.map((to) => m(S.onHold, to, STAFF, 'resume', null)),
  m(S.onHold, S.cancelled, STAFF, 'transition', 'cancelled_at'),
];

/**
 * The move from -> to, or undefined when the pair is not in the map. With `via`, the move of that
 * endpoint is preferred when the pair has several (Assigned -> Scheduled: staff by assignment, the
 * contractor by booking).
 */
export function findMove(from: number, to: number, via?: Via): Move | undefined {
  return (via === undefined ? undefined : MOVES.find((mv) => mv.from === from && mv.to === to && mv.via === via)) ?? MOVES.find((mv) => mv.from === from && mv.to === to);
}

/** The moves out of a status, in map order. */
export function movesFrom(from: number): Move[] {
  return MOVES.filter((mv) => mv.from === from);
}

/** Message of an illegal move (409): "Cannot move a job from Closed to In progress". */
export function illegalMoveMessage(from: number, to: number): string {
  return `Cannot move a job from ${STATUS_NAMES[from] ?? from} to ${STATUS_NAMES[to] ?? to}`;
}
