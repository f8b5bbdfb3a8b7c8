/**
 * Branch SLA rules in people's words (docs/sla-rules.md "What a rule means", docs/sla.md "How time
 * counts"): the allowance in the rule's own unit ("4 hours", "2 working days") and the whole rule
 * as one sentence. Nothing here works out a due time: that is the API's (business hours and bank
 * holidays), shown on a job's page.
 */

/** The four ways a rule counts time (the API's `calendar`). */
export const CALENDARS = ['calendar_hours', 'office_hours', 'calendar_days', 'working_days'] as const;
export type SlaCalendar = (typeof CALENDARS)[number];

/** How each way of counting is named in the rule form. */
export const CALENDAR_LABELS: Record<SlaCalendar, string> = {
  calendar_hours: 'Hours, round the clock',
  office_hours: 'Office hours (bank holidays skipped)',
  calendar_days: 'Days, every day counts',
  working_days: 'Working days (weekends and bank holidays skipped)',
};

/** `value` as one of CALENDARS, else undefined. */
export function calendarOf(value: string): SlaCalendar | undefined {
  return CALENDARS.find((c) => c === value);
}

/** The job date fields a rule may name (the API's `date_field_to_track` and `date_field_to_compare`). */
export const DATE_FIELDS = [
  'created_at',
  'approved_at',
  'assigned_at',
  'scheduled_for',
  'attended_at',
  'completed_at',
  'invoiced_at',
  'closed_at',
  'cancelled_at',
  'updated_at',
] as const;
export type SlaDateField = (typeof DATE_FIELDS)[number];

/** `value` as one of DATE_FIELDS, else undefined. */
export function dateFieldOf(value: string): SlaDateField | undefined {
  return DATE_FIELDS.find((f) => f === value);
}

/** True for the modes whose allowance is in hours (`response_hours`), false for days (`minimum_response_days`). */
export function countsHours(calendar: string): boolean {
  return calendar === 'calendar_hours' || calendar === 'office_hours';
}

/** The job date fields a rule may name (DATE_FIELDS), as a job's moment ("reported", "attended"). */
export const DATE_FIELD_WORDS: Record<string, string> = {
  created_at: 'reported',
  approved_at: 'approved',
  assigned_at: 'assigned',
  scheduled_for: 'scheduled',
  attended_at: 'attended',
  completed_at: 'completed',
  invoiced_at: 'invoiced',
  closed_at: 'closed',
  cancelled_at: 'cancelled',
  updated_at: 'last changed',
};

/** The part of a rule that sets the allowance. */
export interface Allowance {
  calendar: string;
  minimum_response_days: number;
  response_hours: number | null;
}

/** "4 hours", "1 office hour", "10 days", "2 working days": the rule's allowance in its own unit. */
export function allowanceWords(rule: Allowance): string {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  switch (rule.calendar) {
    case 'calendar_hours':
      return plural(rule.response_hours ?? 0, 'hour');
    case 'office_hours':
      return plural(rule.response_hours ?? 0, 'office hour');
    case 'working_days':
      return plural(rule.minimum_response_days, 'working day');
    default:
      return plural(rule.minimum_response_days, 'day');
  }
}

/** What a rule sentence needs besides the rule: the names of its statuses and job type. */
export interface RuleNames {
  branch: string;
  priority: number | null;
  priorityName: string | null;
  jobType: string | null;
  from: string;
  to: string;
  compare: string;
  track: string;
}

/**
 * "Priority 1 (Emergency) jobs of every type in Leeds must be attended within 4 hours of being
 * reported (watched from Reported to In progress)."
 */
export function ruleSentence(rule: Allowance, names: RuleNames): string {
  const priority =
    names.priority === null ? 'Jobs of every priority' : `Priority ${names.priority}${names.priorityName ? ` (${names.priorityName})` : ''} jobs`;
  const type = names.jobType === null ? 'of every type' : `of type ${names.jobType}`;
  const track = DATE_FIELD_WORDS[names.track] ?? names.track;
  const compare = DATE_FIELD_WORDS[names.compare] ?? names.compare;
  return `${priority} ${type} in ${names.branch} must be ${track} within ${allowanceWords(rule)} of being ${compare} (watched from ${names.from} to ${names.to}).`;
}
