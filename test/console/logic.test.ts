/**
 * The console's front-end logic (docs/console.md): session expiry shown to the user, the legal
 * moves offered as buttons per party, the job board's URL state, and how a failed call is told
 * (field errors from the envelope, 429, offline). The moves are checked against the real
 * GET /api/jobs/statuses of the app, so the page and the lifecycle cannot drift apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, mondayOf } from '../../console/src/logic/dates.ts';
import { describeProblem, fieldOf } from '../../console/src/logic/errors.ts';
import { filtersToQuery, filtersToSearch, pageCount, parseFilters, PAGE_SIZE } from '../../console/src/logic/job-filters.ts';
import { moneyActions, poundsToPence } from '../../console/src/logic/money.ts';
import { branchChoices, composeDescription, tenantChoice } from '../../console/src/logic/report.ts';
import { consolePathOf, snippetParts } from '../../console/src/logic/search.ts';
import { describeRemaining, IDLE_SECONDS, looksRemembered, sessionTimes } from '../../console/src/logic/session.ts';
import { allowanceWords, countsHours, ruleSentence } from '../../console/src/logic/sla-words.ts';
import { canAssign, canDecline, legalMoves, moveLabel, partyOf, type JobStatus } from '../../console/src/logic/transitions.ts';
import { buildTestApp, createAgency, createBranch, userClient, type TestApp } from '../helpers/app.ts';

describe('console: session expiry', () => {
  const now = Date.parse('2026-11-21T09:00:00Z');
  it('ends 30 minutes after the last request, or at the absolute expiry if that is sooner', () => {
    const t = sessionTimes('2026-11-21T11:00:00Z', now, false);
    expect(t.idleAt?.toISOString()).toBe('2026-11-21T09:30:00.000Z');
    expect(t.endsAt).toEqual(t.idleAt);
    const late = sessionTimes('2026-11-21T11:00:00Z', Date.parse('2026-11-21T10:45:00Z'), false);
    expect(late.endsAt.toISOString()).toBe('2026-11-21T11:00:00.000Z');
    expect(IDLE_SECONDS).toBe(1800);
  });
  it('a remember-me session has no idle end', () => {
    const t = sessionTimes('2026-12-21T09:00:00Z', now, true);
    expect(t.idleAt).toBeNull();
    expect(t.endsAt.toISOString()).toBe('2026-12-21T09:00:00.000Z');
    expect(looksRemembered('2026-12-21T09:00:00Z', now)).toBe(true);
    expect(looksRemembered('2026-11-21T11:00:00Z', now)).toBe(false);
  });
  it('describes what is left', () => {
    expect(describeRemaining(-1)).toBe('ended');
    expect(describeRemaining(30_000)).toBe('less than a minute');
    expect(describeRemaining(29 * 60_000 + 59_000)).toBe('29 min');
    expect(describeRemaining(65 * 60_000)).toBe('1 h 05 min');
    expect(describeRemaining(30 * 86_400_000)).toBe('30 days');
  });
});

describe('console: job board URL state', () => {
  it('round-trips filters through the query string, leaving defaults out', () => {
    const f = parseFilters(new URLSearchParams('q=boiler&status=3&priority=1&sla=at_risk&sort=priority&order=asc&page=2'));
    expect(f).toEqual({ q: 'boiler', status_id: 3, priority: 1, sla_state: 'at_risk', sort: 'priority', order: 'asc', page: 2 });
    expect(filtersToSearch(f).toString()).toBe('q=boiler&status=3&priority=1&sla=at_risk&sort=priority&order=asc&page=2');
    expect(filtersToSearch(parseFilters(new URLSearchParams(''))).toString()).toBe('');
  });
  it('ignores unknown or out-of-range values', () => {
    const f = parseFilters(new URLSearchParams('status=abc&priority=9&sla=late&sort=drop+table&order=sideways&page=-1'));
    expect(f).toEqual({ q: '', status_id: null, priority: null, sla_state: null, sort: 'created_at', order: 'desc', page: 1 });
    expect(parseFilters(new URLSearchParams('sla=constructor')).sla_state).toBeNull();
  });
  it('maps to the list query of GET /api/jobs/manage', () => {
    const q = filtersToQuery(parseFilters(new URLSearchParams('status=5&page=3')));
    expect(q).toEqual({ status_id: 5, sort: 'created_at', order: 'desc', limit: PAGE_SIZE, offset: 2 * PAGE_SIZE });
    expect(filtersToQuery(parseFilters(new URLSearchParams('sla=breached')))).toMatchObject({ sla_state: 'breached' });
    expect(pageCount(0)).toBe(1);
    expect(pageCount(PAGE_SIZE + 1)).toBe(2);
  });
});

describe('console: search results and money', () => {
  const staff = new Set(['api.tenants.view', 'api.addresses.view', 'api.contractors.view', 'api.invoices.view']);
  it('links each hit to its console page, or to none without the permission', () => {
    expect(consolePathOf({ type: 'job', uuid: 'u1', title: 'JOB-000001' }, new Set())).toBe('/jobs/u1');
    expect(consolePathOf({ type: 'tenant', uuid: 'u2', title: 'Emily Clarke' }, staff)).toBe('/tenants?q=Emily%20Clarke');
    expect(consolePathOf({ type: 'address', uuid: 'u3', title: '14 Kirkstall Road' }, staff)).toBe('/properties/u3');
    expect(consolePathOf({ type: 'invoice', uuid: 'u4', title: 'INV-000001' }, staff)).toBe('/invoices');
    expect(consolePathOf({ type: 'user', uuid: 'u5', title: 'Tom' }, staff)).toBeNull();
    expect(consolePathOf({ type: 'tenant', uuid: 'u2', title: 'Emily' }, new Set())).toBeNull();
    expect(consolePathOf({ type: 'spaceship', uuid: 'u6', title: 'x' }, staff)).toBeNull();
    expect(consolePathOf({ type: 'building', uuid: 'u7', title: 'Aire Court, Leeds' }, staff)).toBe('/addresses?q=Aire%20Court');
    expect(consolePathOf({ type: 'landlord', uuid: 'u8', title: 'Margaret Oyelaran' }, staff)).toBeNull();
    expect(consolePathOf({ type: 'landlord', uuid: 'u8', title: 'Margaret Oyelaran' }, new Set([...staff, 'api.landlords.view']))).toBe('/landlords/u8');
  });
  it('splits the escaped snippet into text and highlighted parts, never HTML', () => {
    expect(snippetParts('Leak under the <mark>kitchen</mark> &amp; <mark>sink</mark>&lt;script&gt;')).toEqual([
      { text: 'Leak under the ', mark: false },
      { text: 'kitchen', mark: true },
      { text: ' & ', mark: false },
      { text: 'sink', mark: true },
      { text: '<script>', mark: false },
    ]);
    expect(snippetParts('')).toEqual([]);
  });
  it('reads prices typed in pounds as pence, refusing anything else', () => {
    expect(poundsToPence('79.50')).toBe(7950);
    expect(poundsToPence('79.5')).toBe(7950);
    expect(poundsToPence(' £1,234.05 ')).toBe(123405);
    expect(poundsToPence('12')).toBe(1200);
    for (const bad of ['', 'about 80', '1.234', '-5', '1e3', '.5']) expect(poundsToPence(bad), bad).toBeNull();
  });
  it('offers a quote before Completed and an invoice on Completed or Invoiced jobs', () => {
    expect(moneyActions(6)).toEqual({ quote: true, invoice: false });
    expect(moneyActions(7)).toEqual({ quote: false, invoice: true });
    expect(moneyActions(8)).toEqual({ quote: false, invoice: true });
    expect(moneyActions(9)).toEqual({ quote: false, invoice: false });
    expect(moneyActions(10)).toEqual({ quote: false, invoice: false });
    expect(moneyActions(11)).toEqual({ quote: true, invoice: false });
  });
});

describe('console: calendar weeks and the repair text', () => {
  it('finds the Monday of a week (UTC), whatever the day or a bad value', () => {
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2026-13-45', new Date('2026-11-26T10:00:00Z'))).toBe('2026-11-23');
    expect(mondayOf(null, new Date('2027-01-01T23:30:00Z'))).toBe('2026-12-28');
    expect(addDays('2026-12-28', 6)).toBe('2027-01-03');
    expect(addDays('2026-11-23', -7)).toBe('2026-11-16');
  });
  it('adds the access notes to the description on their own line', () => {
    expect(composeDescription(' Leak under the sink ', ' After 3 pm ')).toBe('Leak under the sink\n\nAccess: After 3 pm');
    expect(composeDescription('', 'Key with neighbour')).toBe('Access: Key with neighbour');
    expect(composeDescription('Leak', '  ')).toBe('Leak');
  });
  it("lists each open branch once, the empty choice never named after a branch (one branch: 'Leeds City' was listed twice)", () => {
    const one = branchChoices([{ uuid: 'b1', name: 'Leeds City', closed_at: null }], 'Leeds City');
    const names = [one.empty, ...one.options.map((o) => o.name)];
    expect(names.filter((n) => n === 'Leeds City')).toHaveLength(1);
    expect(one).toEqual({ empty: 'The property’s branch (Leeds City)', options: [{ uuid: 'b1', name: 'Leeds City' }] });
    const many = branchChoices(
      [{ uuid: 'b1', name: 'Leeds City' }, { uuid: 'b2', name: 'Headingley', closed_at: '2026-01-01T00:00:00Z' }, { uuid: 'b1', name: 'Leeds City' }, { uuid: 'b3', name: 'Otley' }],
      null,
    );
    expect(many).toEqual({ empty: 'The property’s branch', options: [{ uuid: 'b1', name: 'Leeds City' }, { uuid: 'b3', name: 'Otley' }] });
  });
  it("chooses a property's only tenant, and asks for a shared house's", () => {
    expect(tenantChoice([{ uuid: 't1' }])).toMatchObject({ selected: 't1' });
    expect(tenantChoice([])).toMatchObject({ selected: '', hint: 'No tenant is linked to this property.' });
    const shared = tenantChoice([{ uuid: 't1' }, { uuid: 't2' }, { uuid: 't3' }]);
    expect(shared).toEqual({ selected: '', empty: 'Choose the tenant who reported it', hint: '3 tenants live here: choose who reported the repair (or none for common parts).' });
  });
});

describe('console: problems told to the user', () => {
  it('finds the field an envelope names', () => {
    expect(fieldOf('Invalid or missing required parameter: title')).toBe('title');
    expect(fieldOf('Invalid or missing required parameter: body.visibility')).toBe('visibility');
    expect(fieldOf('Job not found')).toBeNull();
  });
  it('400 points at the field; 429 says how long to wait; offline and 5xx offer a retry', () => {
    expect(describeProblem({ name: 'CaretakerError', status: 400, message: 'Invalid or missing required parameter: title' })).toMatchObject({
      field: 'title',
      retry: false,
    });
    expect(describeProblem({ name: 'RateLimitedError', status: 429, message: 'Rate limit exceeded', retryAfterSeconds: 12 })).toMatchObject({
      message: 'Too many requests just now. Please wait 12 s and try again.',
      retry: true,
      retryAfterSeconds: 12,
    });
    expect(describeProblem(new TypeError('Failed to fetch'))).toMatchObject({ status: 0, retry: true, message: expect.stringContaining('offline') });
    expect(describeProblem(new Error('x'), false)).toMatchObject({ status: 0, retry: true });
    expect(describeProblem({ status: 503, message: 'Service unavailable' })).toMatchObject({ retry: true });
    expect(describeProblem({ status: 404, message: 'Job not found' })).toMatchObject({
      message: 'We cannot find this job. It may have been removed, or it is not shared with you.',
      field: null,
      retry: false,
    });
  });
  it("says the spec's fixed texts in people's words and keeps the API's own sentences", () => {
    const words = (status: number, message: string) => describeProblem({ status, message }).message;
    expect(words(400, 'Invalid or missing required parameter: uuid')).not.toContain('parameter');
    expect(words(400, 'Invalid or missing required parameter: scheduled_for')).toBe('Please check the visit date: it is missing or not valid.');
    expect(words(400, 'Invalid or missing required parameter: landlord_uuid')).toBe('Please check landlord: it is missing or not valid.');
    expect(words(403, 'You do not have permission to perform this action')).toContain('Your account may not do this');
    expect(words(403, 'Invalid or missing CSRF token')).toBe('This page was open for a long time. Please try again.');
    expect(words(401, 'Invalid email or password')).toContain('e-mail address or password is not right');
    const rule = 'Cannot close a job while its invoice is a draft: issue or void the invoice first';
    expect(words(409, rule)).toBe(rule);
  });
});

describe('console: legal moves from GET /api/jobs/statuses', () => {
  let t: TestApp;
  let statuses: JobStatus[];
  beforeAll(async () => {
    t = await buildTestApp();
    const agency = await createAgency(t.db);
    const branch = await createBranch(t.db, agency.id);
    const agent = await userClient(t, { role: 'agent', agencyId: agency.id, branchId: branch.id });
    statuses = (await agent.client.get('/api/jobs/statuses')).json().data as JobStatus[];
  });
  afterAll(async () => t?.close());

  const names = (status_id: number, party: ReturnType<typeof partyOf>, on_hold_from_status_id: number | null = null) =>
    legalMoves(statuses, { status_id, on_hold_from_status_id }, party).map(moveLabel);

  it('maps roles to parties', () => {
    expect(['Agent', 'Admin', 'SysOps', 'API'].map(partyOf)).toEqual(['staff', 'staff', 'staff', 'staff']);
    expect(partyOf('Contractor')).toBe('contractor');
    expect(partyOf('tenant')).toBe('tenant');
  });
  it('offers staff, contractors and tenants only their own moves', () => {
    expect(names(1, 'staff')).toEqual(['Ask for approval', 'Approve', 'Cancel job', 'Put on hold']);
    expect(names(1, 'tenant')).toEqual(['Cancel job']);
    expect(names(1, 'contractor')).toEqual([]);
    expect(names(5, 'contractor')).toEqual(['Mark attended']);
    expect(names(6, 'contractor')).toEqual(['Mark completed']);
    // Invoiced comes from issuing the invoice, never from a button (docs/jobs.md "Invoiced and Closed").
    expect(names(7, 'staff')).toEqual(['Close job', 'Put on hold']);
    expect(names(9, 'staff')).toEqual([]);
  });
  it('resumes an On hold job only to where it came from', () => {
    expect(names(11, 'staff', 5)).toEqual(['Resume (Scheduled)', 'Cancel job']);
  });
  it('assignment is for staff from Approved, Assigned or Scheduled; decline for the contractor', () => {
    expect([1, 3, 4, 5, 6].map((s) => canAssign(statuses, { status_id: s }, 'staff'))).toEqual([false, true, true, true, false]);
    expect(canAssign(statuses, { status_id: 3 }, 'tenant')).toBe(false);
    expect([3, 4, 5, 6].map((s) => canDecline(statuses, { status_id: s }, 'contractor'))).toEqual([false, true, true, false]);
  });
});

describe('SLA rules in words (docs/sla-rules.md)', () => {
  it('names the allowance in the unit of its mode, singular or plural', () => {
    expect(allowanceWords({ calendar: 'calendar_hours', minimum_response_days: 0, response_hours: 4 })).toBe('4 hours');
    expect(allowanceWords({ calendar: 'office_hours', minimum_response_days: 0, response_hours: 1 })).toBe('1 office hour');
    expect(allowanceWords({ calendar: 'calendar_days', minimum_response_days: 10, response_hours: null })).toBe('10 days');
    expect(allowanceWords({ calendar: 'working_days', minimum_response_days: 2, response_hours: null })).toBe('2 working days');
    expect([countsHours('office_hours'), countsHours('working_days')]).toEqual([true, false]);
  });

  it('says the whole rule as one sentence', () => {
    const names = { branch: 'Leeds', priority: 1, priorityName: 'Emergency', jobType: null, from: 'Reported', to: 'In progress', compare: 'created_at', track: 'attended_at' };
    expect(ruleSentence({ calendar: 'calendar_hours', minimum_response_days: 0, response_hours: 4 }, names)).toBe(
      'Priority 1 (Emergency) jobs of every type in Leeds must be attended within 4 hours of being reported (watched from Reported to In progress).',
    );
    expect(ruleSentence({ calendar: 'working_days', minimum_response_days: 14, response_hours: null }, { ...names, priority: null, priorityName: null, jobType: 'Inspection', compare: 'scheduled_for', track: 'completed_at' })).toBe(
      'Jobs of every priority of type Inspection in Leeds must be completed within 14 working days of being scheduled (watched from Reported to In progress).',
    );
  });
});
