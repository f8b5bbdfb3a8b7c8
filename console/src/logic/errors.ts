/**
 * Turning a failed call into words for the user, next to the field or action that caused it
 * (docs/console.md "Errors"): the error envelope's text (spec 7), the field it names
 * ("Invalid or missing required parameter: <name>"), 429 with its wait, and no connection at all.
 * The envelope's fixed texts (spec 7) are turned into people's words (`humanise`); the API's own
 * sentences (409 rules such as "Cannot close a job while its invoice is a draft...") are shown as
 * they are.
 */

/** What the page shows for a failure. */
export interface Problem {
  /** The sentence shown. */
  message: string;
  /** The form field the envelope names, when it names one. */
  field: string | null;
  /** True when trying again later can help (429, offline, 5xx). */
  retry: boolean;
  /** Seconds to wait before retrying (429's Retry-After). */
  retryAfterSeconds: number | null;
  /** HTTP status, or 0 when the request never got an answer. */
  status: number;
}

/** The field named by an envelope message ("Invalid or missing required parameter: title" -> "title"). */
export function fieldOf(message: string): string | null {
  const m = /(?:parameter|field):\s*([A-Za-z_][\w.]*)/.exec(message);
  return m ? m[1]!.split('.').pop()! : null;
}

/** Field names of the API as people call them ("Please check the visit date."). */
const FIELD_WORDS: Record<string, string> = {
  uuid: 'the address of this page',
  email: 'the e-mail address',
  password: 'the password',
  title: 'what needs repairing',
  body: 'the text',
  reason: 'the reason',
  scheduled_for: 'the visit date',
  time_range_id: 'the time slot',
  contractor_uuid: 'the contractor',
  address_uuid: 'the property',
  branch_uuid: 'the branch',
  amount_pence: 'the amount',
  unit_price_pence: 'the price',
  quantity: 'the quantity',
  file: 'the file',
  action: 'the action',
  q: 'the search text',
  name: 'the name',
  company_name: 'the company name',
  contact_name: 'the contact name',
  phone: 'the phone number (digits, spaces and brackets, such as 0113 496 0000)',
  mobile: 'the mobile number (digits, spaces and brackets, such as 07700 900123)',
  postcode: 'the postcode (a UK postcode such as LS6 3HN)',
  address_postcode: 'the postcode (a UK postcode such as LS6 3HN)',
  line1: 'the first line of the address',
  town: 'the town',
  coverage: 'the areas covered (postcode districts such as LS6, separated by commas)',
  districts: 'the areas covered (postcode districts such as LS6, separated by commas)',
  trade_ids: 'the trades',
  role: 'the role',
  issued_on: 'the issue date (it cannot be in the future)',
  expires_on: 'the expiry date (it cannot be before the issue date)',
  starts_on: 'the first due date',
  lead_days: 'how many days ahead the job is raised',
  rrule: 'how often it repeats',
  interval_months: 'how often it is renewed',
  required_document: 'the document that proves it',
  code: 'the name',
  type: 'the compliance item',
  trade_id: 'the trade',
  job_status_from_id: 'the status the clock starts at',
  job_status_to_id: 'the status the clock stops at (it must differ from the one it starts at)',
  date_field_to_compare: 'when the clock starts',
  date_field_to_track: 'when the clock stops (it must differ from when it starts)',
  job_priority: 'the priority',
  job_type_id: 'the job type',
  minimum_response_days: 'the allowed time (whole days, 0 to 3650)',
  response_hours: 'the allowed time (whole hours, 1 to 87600)',
  calendar: 'how time counts',
  uk_region: 'the part of the UK',
  at_risk_percent: 'the at-risk share (a whole number from 1 to 99)',
  office_hours: 'the office hours (times as HH:MM; each open day closes after it opens; at least one day open)',
  subject: 'the subject',
  mjml: 'the e-mail layout',
  text_body: 'the plain text',
};

/** What a resource of a 404 is called ("Job" -> "this job"). */
const THINGS: Record<string, string> = { Resource: 'this page', Invoice: 'this invoice', Job: 'this job', User: 'this user', Tenant: 'this tenant' };

/**
 * The envelope's text in people's words: the spec's fixed messages (spec 7) get a sentence saying
 * what to do; a named field is told by its everyday name; any other text is the API's own
 * sentence and is kept.
 */
export function humanise(status: number, message: string): string {
  const field = fieldOf(message);
  if (status === 400 && /^Invalid or missing required parameter/.test(message)) {
    if (field === 'uuid') return 'This address does not point at a record: check the link, or go back and open it from its list.';
    const words = field ? (FIELD_WORDS[field] ?? field.replace(/_(uuid|id)$/, '').replaceAll('_', ' ')) : 'the form';
    return `Please check ${words}: it is missing or not valid.`;
  }
  if (status === 401) {
    if (/Invalid email or password/i.test(message)) return 'The e-mail address or password is not right. Check them and try again.';
    return 'Please sign in again.';
  }
  if (status === 403) {
    if (/CSRF/i.test(message)) return 'This page was open for a long time. Please try again.';
    if (message === 'You do not have permission to perform this action' || message === 'Forbidden')
      return 'Your account may not do this. Ask an administrator of your agency if you need to.';
    return message;
  }
  if (status === 404) {
    const m = /^(\w[\w ]*) not found$/.exec(message);
    if (m) {
      const thing = THINGS[m[1]!] ?? `this ${m[1]!.toLowerCase()}`;
      return `We cannot find ${thing}. It may have been removed, or it is not shared with you.`;
    }
    return message;
  }
  if (status === 413) return 'That file or text is too large. Choose a smaller file and try again.';
  if (status === 415) return 'That kind of file is not accepted here.';
  if (message === 'Conflict') return 'Someone changed this in the meantime. Reload the page and try again.';
  return message;
}

interface ErrorLike {
  name?: string;
  message?: string;
  status?: number;
  retryAfterSeconds?: number;
}

/**
 * Classifies an error thrown by the typed client (CaretakerError, RateLimitedError) or by fetch
 * itself (TypeError when offline or the server is unreachable).
 */
export function describeProblem(error: unknown, online = true): Problem {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  if (typeof e.status === 'number') {
    if (e.status === 429) {
      const wait = e.retryAfterSeconds ?? 1;
      return { message: `Too many requests just now. Please wait ${wait} s and try again.`, field: null, retry: true, retryAfterSeconds: wait, status: 429 };
    }
    if (e.status >= 500) {
      return { message: 'The server could not complete this. Please try again.', field: null, retry: true, retryAfterSeconds: null, status: e.status };
    }
    const raw = e.message || 'The request was refused.';
    return { message: humanise(e.status, raw), field: e.status === 400 ? fieldOf(raw) : null, retry: false, retryAfterSeconds: null, status: e.status };
  }
  if (!online || e.name === 'TypeError') {
    return {
      message: 'You appear to be offline or the server cannot be reached. Check the connection and try again.',
      field: null,
      retry: true,
      retryAfterSeconds: null,
      status: 0,
    };
  }
  return { message: e.message || 'Something went wrong.', field: null, retry: true, retryAfterSeconds: null, status: 0 };
}
