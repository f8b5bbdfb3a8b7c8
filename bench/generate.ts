/**
 * Benchmark data (bench/README.md): a deterministic data set written with set-based SQL
 * (`insert ... select ... from generate_series(...)`), so 100,000 jobs and 1,000,000 activity
 * entries take seconds, not minutes. Runs on PGlite and PostgreSQL.
 *
 * Shape: 10 agencies (50 for the `huge` size: `agencies`) with 5 branches each; per agency one
 * admin (user id (a-1)*6+1) and five agents, one per branch; `loginAccounts` extra admins of
 * agency 1 for the login scenario; jobs spread evenly over agencies, branches, statuses and the
 * year before 2026-11-21, each at one of its agency's 100 properties (addresses) and with two
 * history rows (its creation by the agency's admin, then the move to its status an hour later);
 * activity entries spread over the agency users (60, or 300) and the same year; agency 1 also has
 * 900 more properties (1,000 in all) with their compliance items and certificates, and a landlord
 * with recharges and payments (complianceAndStatement).
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { UK_COMPLIANCE_TYPES } from '../src/modules/jobs/compliance/compliance-types.ts';
import { createHistoryMonths } from '../src/modules/platform/gdpr/index.ts';

/** Agencies unless `GenerateOptions.agencies` says otherwise. */
export const AGENCIES = 10;
export const BRANCHES_PER_AGENCY = 5;
export const USERS_PER_AGENCY = 6;
/** Properties (addresses) per agency: address (a-1)*100+k, branch k % 5 of its agency. */
export const ADDRESSES_PER_AGENCY = 100;
/**
 * Agency 1's properties in all: its 100 above and 900 more (ids agencies*100+1 on, no jobs), each
 * with the compliance items a dwelling with gas needs (5 each) and most with a certificate: the
 * compliance register of a 1,000-property agency (bench/README.md).
 */
export const COMPLIANCE_PROPERTIES = 1000;
/** Agency 1's landlord 1 owns this many of its properties (every fifth: addresses 1, 6, ..., 96), recharged for their jobs. */
export const LANDLORD_PROPERTIES = 20;
/** "Now" of the data set. */
export const BENCH_NOW = '2026-11-21T09:00:00Z';

export interface GenerateOptions {
  jobs: number;
  activity: number;
  /** argon2id hash used for every account. */
  passwordHash: string;
  /** Extra admins of agency 1 (login-N@bench.test) for the login scenario. */
  loginAccounts: number;
  /** Agencies (default AGENCIES, 10); the `huge` size has 50. */
  agencies?: number;
  /**
   * Agency 1's compliance register and landlord statement (complianceAndStatement; default true).
   * bench/insight.ts leaves them out: its own contractors and invoices would collide with them.
   */
  registerAndStatement?: boolean;
}

async function run(db: Db, statement: string): Promise<void> {
  await sql.raw(statement).execute(db);
}

/**
 * Fills a freshly migrated database (built-in roles synced).
 * @returns seconds taken
 */
export async function generate(db: Db, o: GenerateOptions): Promise<number> {
  const started = Date.now();
  const now = `'${BENCH_NOW}'::timestamptz`;
  const hash = o.passwordHash.replace(/'/g, "''");
  const roles = new Map((await db.selectFrom('roles').select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
  const admin = roles.get('admin');
  const agent = roles.get('agent');
  if (!admin || !agent) throw new Error('built-in roles missing: migrate and sync first');
  const agencies = o.agencies ?? AGENCIES;
  const users = agencies * USERS_PER_AGENCY;

  await run(db, `insert into agencies (id, uuid, name, created_at, updated_at)
    select g, md5('agency' || g)::uuid, 'Bench agency ' || g, ${now}, ${now} from generate_series(1, ${agencies}) g`);
  await run(db, `insert into branches (id, uuid, agency_id, name, sharing_enabled, created_at, updated_at)
    select g, md5('branch' || g)::uuid, (g - 1) / ${BRANCHES_PER_AGENCY} + 1, 'Branch ' || g, g % 5 = 0, ${now}, ${now}
    from generate_series(1, ${agencies * BRANCHES_PER_AGENCY}) g`);
  // User (a-1)*6+1 is agency a's admin; +2..+6 are its agents, one per branch.
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    select g, md5('user' || g)::uuid, (g - 1) / ${USERS_PER_AGENCY} + 1,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then null
           else ((g - 1) / ${USERS_PER_AGENCY}) * ${BRANCHES_PER_AGENCY} + (g - 1) % ${USERS_PER_AGENCY} end,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then ${admin} else ${agent} end,
      'Bench user ' || g,
      case when (g - 1) % ${USERS_PER_AGENCY} = 0 then 'admin-' || ((g - 1) / ${USERS_PER_AGENCY} + 1) || '@bench.test'
           else 'agent-' || g || '@bench.test' end,
      '${hash}', ${now}, ${now}
    from generate_series(1, ${users}) g`);
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    select ${users} + g, md5('login' || g)::uuid, 1, null, ${admin}, 'Login user ' || g, 'login-' || g || '@bench.test',
      '${hash}', ${now}, ${now}
    from generate_series(1, ${o.loginAccounts}) g`);
  // A SysOps account (sysops@bench.test) who sees every job: the growth scenario over all of them.
  const sysops = roles.get('sysops');
  if (!sysops) throw new Error('built-in role sysops missing: migrate and sync first');
  await run(db, `insert into users (id, uuid, agency_id, branch_id, role_id, name, email, password_hash, created_at, updated_at)
    values (${users + o.loginAccounts + 1}, md5('sysops')::uuid, null, null, ${sysops}, 'Bench SysOps', 'sysops@bench.test', '${hash}', ${now}, ${now})`);

  // Properties: address (a-1)*100+k+1 of agency a in its branch k % 5 + 1, stored with their PAF
  // parts (building number and street), so the wire shape is the stored parts.
  await run(db, `insert into addresses (id, uuid, agency_id, branch_id, line1, town, postcode, building_number, street, created_at, updated_at)
    select g, md5('address' || g)::uuid, (g - 1) / ${ADDRESSES_PER_AGENCY} + 1,
      ((g - 1) / ${ADDRESSES_PER_AGENCY}) * ${BRANCHES_PER_AGENCY} + ((g - 1) % ${ADDRESSES_PER_AGENCY}) % ${BRANCHES_PER_AGENCY} + 1,
      ((g - 1) % ${ADDRESSES_PER_AGENCY} + 1) || ' Bench Road', 'Leeds', 'LS' || ((g - 1) / ${ADDRESSES_PER_AGENCY} % 20 + 1) || ' ' || ((g - 1) % 9 + 1) || 'AB',
      ((g - 1) % ${ADDRESSES_PER_AGENCY} + 1)::text, 'Bench Road', ${now}, ${now}
    from generate_series(1, ${agencies * ADDRESSES_PER_AGENCY}) g`);

  // Jobs: agency (g % agencies) + 1, one of its five branches, at one of that branch's properties,
  // spread over the year before "now".
  await run(db, `insert into jobs (id, uuid, agency_id, branch_id, address_id, reference, title, description, priority, status_id,
      job_type_id, created_at, updated_at)
    select g, md5('job' || g)::uuid, g % ${agencies} + 1,
      (g % ${agencies}) * ${BRANCHES_PER_AGENCY} + (g / ${agencies}) % ${BRANCHES_PER_AGENCY} + 1,
      (g % ${agencies}) * ${ADDRESSES_PER_AGENCY} + (g / ${agencies}) % ${ADDRESSES_PER_AGENCY} + 1,
      'JOB-' || lpad(g::text, 7, '0'), 'Bench job ' || g, 'Generated for the benchmark', g % 5 + 1, g % 11 + 1, g % 6 + 1,
      ${now} - ((${o.jobs} - g)::double precision * ${(365 * 86400) / o.jobs}) * interval '1 second',
      ${now} - ((${o.jobs} - g)::double precision * ${(365 * 86400) / o.jobs}) * interval '1 second'
    from generate_series(1, ${o.jobs}) g`);
  await run(db, `insert into agency_counters (agency_id, name, value)
    select g, 'job_reference', ${o.jobs} + 1 from generate_series(1, ${agencies}) g`);

  // The history tables are partitioned by month (docs/operations.md "History partitions and
  // retention"): the year's months are created first, so the activity lands in them, not in DEFAULT.
  await createHistoryMonths(db, new Date(new Date(BENCH_NOW).getTime() - 366 * 86_400_000), new Date(BENCH_NOW));
  // History: each job's creation (null -> Reported, by its agency's admin) and, for a job past
  // Reported, the move to its status an hour later (ids 2g-1 and 2g).
  await run(db, `insert into job_status_history (id, job_id, from_status_id, to_status_id, by_user_id, note, created_at)
    select 2 * j.id - 1 + s.k, j.id, case when s.k = 0 then null else 1 end, case when s.k = 0 then 1 else j.status_id end,
      (j.agency_id - 1) * ${USERS_PER_AGENCY} + 1, case when s.k = 0 then null else 'Bench move' end, j.created_at + s.k * interval '1 hour'
    from jobs j cross join generate_series(0, 1) s(k) where s.k = 0 or j.status_id <> 1`);
  // Activity: agency (g % agencies) + 1, one of its six users, eight actions, the same year.
  await run(db, `insert into activity_log (id, agency_id, user_id, user_name, action, resource_type, resource_id, ip_address,
      details, created_at)
    select g, g % ${agencies} + 1,
      (g % ${agencies}) * ${USERS_PER_AGENCY} + (g / ${agencies}) % ${USERS_PER_AGENCY} + 1,
      'Bench user ' || ((g % ${agencies}) * ${USERS_PER_AGENCY} + (g / ${agencies}) % ${USERS_PER_AGENCY} + 1),
      (array['job.create','job.update','auth.login','job.note_add','job.assign','invoice.create','tenant.update','auth.logout'])[g % 8 + 1],
      'job', g % ${Math.max(o.jobs, 1)} + 1, '10.0.' || (g % 250) || '.' || (g % 199), null,
      ${now} - ((${o.activity} - g)::double precision * ${(365 * 86400) / o.activity}) * interval '1 second'
    from generate_series(1, ${o.activity}) g`);

  if (o.registerAndStatement ?? true) await complianceAndStatement(db, agencies, now);

  for (const table of [
    'agencies', 'branches', 'users', 'addresses', 'jobs', 'job_status_history', 'activity_log', 'compliance_item_types', 'compliance_items',
    'compliance_certificates', 'contractors', 'invoices', 'landlords', 'landlord_recharges', 'landlord_ledger_entries',
  ]) {
    // An empty table's sequence is left to start at 1 (is_called false).
    await run(db, `select setval('${table}_id_seq', coalesce((select max(id) from ${table}), 1), (select max(id) from ${table}) is not null)`);
  }
  // A steady-state table has its visibility map set by autovacuum (index-only scans need it); a
  // bulk load does not yet, so vacuum now rather than measure the first minutes after a load.
  await run(db, 'vacuum analyze');
  return (Date.now() - started) / 1000;
}

/** The uuid written for `text`, as `md5(text)::uuid` writes it in SQL. */
function md5Uuid(text: string): string {
  const h = createHash('md5').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Agency 1's compliance register and a landlord's statement (bench/README.md "The compliance
 * register and a landlord statement"), set-based like the rest:
 * - 900 more properties of agency 1 (1,000 in all), the UK compliance types seeded for it, every
 *   property given the items a dwelling with gas needs (gas safety, EICR, EPC, smoke and CO alarms,
 *   legionella: the register's derivation finds nothing to add), and 9 items in 10 a certificate by
 *   contractor 1, issued within the type's interval and two months more before the data set's now
 *   (so some expired, some due soon, most valid; every tenth item missing), one gas record or EICR
 *   in three without its tenant's copy served and one EPC in thirteen rated F (findings; the F
 *   non-compliant unless expired);
 * - landlord 1 of agency 1 owning every fifth of its first 100 properties outright (1, 6, ..., 96: their jobs spread over the year), a paid contractor invoice and an
 *   active recharge (fee 10 % + VAT) for each job at them, dated a week after the job, and a payment
 *   from the landlord on the 15th of each of the 12 months before now.
 */
async function complianceAndStatement(db: Db, agencies: number, now: string): Promise<void> {
  const extra = COMPLIANCE_PROPERTIES - ADDRESSES_PER_AGENCY;
  const first = agencies * ADDRESSES_PER_AGENCY;
  await run(db, `insert into addresses (id, uuid, agency_id, branch_id, line1, town, postcode, building_number, street, created_at, updated_at)
    select g, md5('address' || g)::uuid, 1, (g - 1) % ${BRANCHES_PER_AGENCY} + 1, (g - ${first} + ${ADDRESSES_PER_AGENCY}) || ' Register Street', 'Leeds',
      'LS' || (g % 20 + 1) || ' ' || (g % 9 + 1) || 'CD', (g - ${first} + ${ADDRESSES_PER_AGENCY})::text, 'Register Street', ${now}, ${now}
    from generate_series(${first + 1}, ${first + extra}) g`);
  const at = new Date(BENCH_NOW);
  await db.insertInto('compliance_item_types')
    .values(UK_COMPLIANCE_TYPES.map((t, i) => ({ ...t, id: i + 1, uuid: md5Uuid(`type${t.code}`), agency_id: 1, created_at: at, updated_at: at })))
    .execute();
  // What deriveItems gives a dwelling that is not communal, not an HMO, gas not ruled out.
  await run(db, `insert into compliance_items (id, uuid, agency_id, address_id, type_id, derived, created_at, updated_at)
    select row_number() over (order by a.id, t.id), md5('item' || a.id || t.code)::uuid, 1, a.id, t.id, true, ${now}, ${now}
    from addresses a join compliance_item_types t on t.agency_id = a.agency_id and t.applies_to in ('dwelling', 'gas')
    where a.agency_id = 1`);
  await run(db, `insert into contractors (id, uuid, agency_id, company_name, contact_name, email, created_at, updated_at)
    values (1, md5('contractor1')::uuid, 1, 'Bench Gas & Electric Ltd', 'Bench Engineer', 'contractor-1@bench.test', ${now}, ${now})`);
  await run(db, `insert into compliance_certificates (id, uuid, agency_id, item_id, issued_on, expires_on, reference, contractor_id, created_at,
      epc_rating, outcome, tenant_copy_due_on, tenant_copy_served_on, smoke_alarm_storeys, co_alarm_rooms)
    select i.id, md5('certificate' || i.id)::uuid, 1, i.id, c.issued, c.issued + make_interval(months => t.interval_months), 'BENCH-' || i.id, 1, ${now},
      case when t.code = 'epc' and i.id % 13 = 0 then 'F' when t.code = 'epc' then 'C' end, case when t.code = 'eicr' then 'satisfactory' end,
      case when t.code in ('gas_safety', 'eicr') then c.issued + 28 end,
      case when t.code in ('gas_safety', 'eicr') and i.id % 3 <> 0 then c.issued + 3 end,
      case when t.code = 'smoke_co_alarms' then 1 end, case when t.code = 'smoke_co_alarms' then '{}'::text[] end
    from compliance_items i join compliance_item_types t on t.id = i.type_id
    cross join lateral (select (${now})::date - (i.id * 37) % (coalesce(t.interval_months, 12) * 30 + 60) as issued) c
    where i.id % 10 <> 0`);

  await run(db, `insert into landlords (id, uuid, agency_id, kind, name, email, address_line1, address_town, address_postcode, created_at, updated_at)
    values (1, md5('landlord1')::uuid, 1, 'person', 'Bench Landlord 1', 'landlord-1@bench.test', '1 Landlord Lane', 'York', 'YO1 1AA', ${now}, ${now})`);
  await run(db, `insert into landlord_properties (landlord_id, address_id, share_bp, created_at)
    select 1, (g - 1) * 5 + 1, 10000, ${now} from generate_series(1, ${LANDLORD_PROPERTIES}) g`);
  await run(db, `insert into invoices (id, uuid, agency_id, job_id, contractor_id, kind, number, status, vat_registered, payment_terms_days, issue_date,
      due_date, net_pence, vat_pence, gross_pence, paid_pence, created_at, updated_at, issued_at, paid_at, supply_date, vat_treatment)
    select j.id, md5('invoice' || j.id)::uuid, 1, j.id, 1, 'invoice', j.id / ${agencies}, 'paid', true, 30, d.issued, d.issued + 30,
      d.net, d.net / 5, d.net + d.net / 5, d.net + d.net / 5, j.created_at, j.created_at, j.created_at, j.created_at, d.issued, 'disbursement'
    from jobs j cross join lateral (select (j.created_at at time zone 'UTC')::date + 7 as issued, 10000 + (j.id % 7) * 2500 as net) d
    where j.agency_id = 1 and j.address_id in (select address_id from landlord_properties where landlord_id = 1)`);
  await run(db, `insert into landlord_recharges (id, uuid, agency_id, number, landlord_id, address_id, job_id, invoice_id, kind, share_bp, recharge_date,
      cost_net_pence, cost_vat_pence, fee_net_pence, fee_vat_pence, fee_vat_rate_bp, total_pence, status, created_at, vat_treatment)
    select i.id, md5('recharge' || i.id)::uuid, 1, i.number, 1, j.address_id, j.id, i.id, 'recharge', 10000, i.issue_date,
      i.net_pence, i.vat_pence, i.net_pence / 10, i.net_pence / 50, 2000, i.gross_pence + i.net_pence / 10 + i.net_pence / 50, 'active', i.created_at, 'disbursement'
    from invoices i join jobs j on j.id = i.job_id`);
  await run(db, `insert into landlord_ledger_entries (id, uuid, agency_id, landlord_id, kind, entry_date, amount_pence, reference, created_at)
    select g, md5('ledger' || g)::uuid, 1, 1, 'payment_from_landlord', date '2025-12-15' + make_interval(months => g - 1), 150000, 'BENCH-PAY-' || g, ${now}
    from generate_series(1, 12) g`);
}
