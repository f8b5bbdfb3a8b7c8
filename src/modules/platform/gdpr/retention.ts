/**
 * The retention schedule (docs/gdpr.md "Retention"): each record kind with its lawful default
 * period in months and the source of that default; an agency sets its own periods in its
 * settings (GET/PUT /api/gdpr/retention). The periodic task `gdpr.retention` applies them.
 */

/** One record kind of the schedule. */
export interface RetentionKind {
  key: string;
  title: string;
  /** Default period in months. */
  months: number;
  /** Whether the law fixes the minimum (an agency may lengthen, never shorten it). */
  statutory: boolean;
  source: string;
  /** What happens when the period ends. */
  applies_to: string;
}

/** Every record kind, with its default (the lawful minimum where the law sets one). */
export const RETENTION_KINDS: readonly RetentionKind[] = [
  {
    key: 'vat_records', title: 'VAT records (invoices, credit notes, recharges, statements)', months: 72, statutory: true,
    source: 'VAT Notice 700/21 para. 1.2 (keep for 6 years); Value Added Tax Act 1994 Sch. 11 para. 6(3)',
    applies_to: 'records an erasure kept: the name and address on them are released (scrubbed) 6 years after issue',
  },
  {
    key: 'aml_records', title: 'Anti-money-laundering records (customer due diligence of landlords)', months: 60, statutory: true,
    source: 'Money Laundering, Terrorist Financing and Transfer of Funds (Information on the Payer) Regulations 2017 (SI 2017/692) reg. 40(3): 5 years from the end of the business relationship',
    applies_to: 'records an erasure kept: released 5 years after the erasure ends the relationship',
  },
  {
    key: 'hazard_records', title: 'Hazard records (Awaab\'s Law: the written summary as given to the tenant)', months: 72, statutory: false,
    source: 'the agency\'s policy; the default follows the 6-year limitation period of a claim in contract (Limitation Act 1980 s. 5), the longest a disrepair claim under Landlord and Tenant Act 1985 s. 11 runs',
    applies_to: 'records an erasure kept: the written summary\'s copy is released (cleared) this long after it was sent',
  },
  {
    key: 'repair_records', title: 'Repair records (photos and documents of closed jobs)', months: 72, statutory: false,
    source: 'the agency\'s policy; the default follows Limitation Act 1980 s. 5 (6 years)',
    applies_to: 'the photos and documents of jobs closed or cancelled longer ago are deleted (the job itself is kept)',
  },
  {
    key: 'message_log', title: 'Message log (e-mails, texts and push messages sent; texts received)', months: 24, statutory: false,
    source: 'the agency\'s policy (UK GDPR Art. 5(1)(e), storage limitation)',
    applies_to: 'delivery-log rows and SMS rows older than this are deleted',
  },
  {
    key: 'activity_log', title: 'Activity log (who did what, when, from where)', months: 72, statutory: false,
    source: 'the agency\'s policy; the default follows Limitation Act 1980 s. 5 (6 years), the evidence of who did what in a claim',
    applies_to: 'months of the activity log older than this (for every agency on the instance) are archived to the file store and dropped',
  },
  {
    key: 'job_history', title: 'Job status history (each change of a job\'s status)', months: 72, statutory: false,
    source: 'the agency\'s policy; the default follows Limitation Act 1980 s. 5 (6 years), as the repair records',
    applies_to: 'months of job status history older than this (for every agency on the instance) are archived and dropped; the jobs themselves are kept',
  },
  {
    key: 'event_log', title: 'Event log (the outbox of domain events, once delivered)', months: 3, statutory: false,
    source: 'the agency\'s policy (UK GDPR Art. 5(1)(e), storage limitation); events are working data, their effects are the records',
    applies_to: 'months of delivered events older than this are archived and dropped; a month with an undelivered event is kept',
  },
  {
    key: 'webhook_log', title: 'Webhook delivery log (calls to the agency\'s endpoints)', months: 3, statutory: false,
    source: 'the agency\'s policy (UK GDPR Art. 5(1)(e), storage limitation)',
    applies_to: 'months of webhook deliveries older than this are archived and dropped; a month with a pending delivery is kept',
  },
  {
    key: 'sessions', title: 'Sign-ins and sessions (ended)', months: 3, statutory: false,
    source: 'the agency\'s policy (UK GDPR Art. 5(1)(e), storage limitation)',
    applies_to: 'sessions and tokens that expired or were revoked longer ago are deleted',
  },
];

/** The kind of a key, or undefined. */
export function retentionKind(key: string): RetentionKind | undefined {
  return RETENTION_KINDS.find((k) => k.key === key);
}
