/**
 * The bench's honest limit: what this machine can do for the same response without our stack.
 * A bare `node:http` server, one prepared SQL statement per request (the bearer token checked in
 * the same statement), the response body built by PostgreSQL as text and written as is. The
 * runner checks byte for byte that each limit route answers what Caretaker answers, so the
 * ratio Caretaker / limit compares equal work.
 *
 * Routes (the bench's scenarios, agency-admin scope only; anything else 404):
 * - GET /jobs?limit=N: the body of `GET /api/jobs/manage?limit=N` (newest first, count capped at
 *   10,000 as Caretaker's: the huge size's agencies have 20,000 jobs);
 * - GET /activity?user_id=U&from_date=D&to_date=D&limit=N, or ?limit=N&offset=M: the body of
 *   `GET /api/admin/activity-log` with those parameters (count capped at 10,000);
 * - GET /status: the body of `GET /api/system/status` (one `select 1` and a Redis PING; the real one
 *   also looks up the bearer token, since the status needs authentication, and learns that Redis
 *   answers from its rate-limit round trip instead of a PING: one Redis command each);
 * - GET /csrf-token and POST /jobs: `GET /api/security/csrf-token` and `POST /api/jobs/manage`
 *   (title, priority, branch_uuid; X-CSRF-Token), each one statement: the same writes, a response
 *   of the same shape (the runner compares keys and types; new ids and times differ). With Redis
 *   the CSRF token is kept where Caretaker keeps it then (src/core/csrf-store.ts): one SET beside
 *   the token check, one GETDEL before the job's statement;
 * - POST /login: `POST /api/auth/login` (argon2id check, then one statement for its writes);
 * - GET /job?uuid=U and GET /history?uuid=U: the job page's two reads, `GET /api/jobs/{uuid}` and
 *   `GET /api/jobs/{uuid}/history`, one statement each;
 * - GET /address?uuid=U and GET /jobs?address_uuid=A&limit=N: the property page's first two reads,
 *   `GET /api/addresses/{uuid}` and its jobs (`GET /api/jobs/manage?address_uuid=A&limit=N`);
 * - GET /compliance?limit=N&offset=M: the compliance page's register, `GET /api/compliance` with
 *   those parameters (default sort), its seeding and derivation included.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import type { AppDeps } from '../src/app-deps.ts';
import { jsonValueSql, type JsonKind } from '../src/db/json-sql.ts';
import { CSRF_TTL_S } from '../src/http/csrf.ts';
import { UK_COMPLIANCE_TYPES } from '../src/modules/jobs/compliance/compliance-types.ts';
import { verifyPassword } from '../src/lib/passwords.ts';

/** Lifetimes of the login token and the session (the auth module's LIFETIMES.login and .session). */
const LOGIN_LIFETIME_S = 90 * 86_400;
const SESSION_LIFETIME_S = 2 * 3_600;

/** A JSON fragment for a column: `"name":<value>` built in SQL (the same value writer as the jobs list). */
type Kind = JsonKind;
const jsonValue = jsonValueSql;
const jsonObject = (fields: Array<[string, string, Kind]>): string =>
  `'{' || ${fields.map(([name, expr, kind], i) => `'${i ? ',' : ''}"${name}":' || ${jsonValue(expr, kind)}`).join(' || ')} || '}'`;
/** jsonObject, where a field of kind `raw` is an expression already giving its JSON text. */
const rawObject = (fields: Array<[string, string, Kind | 'raw']>): string =>
  `'{' || ${fields.map(([name, expr, kind], i) => `'${i ? ',' : ''}"${name}":' || ${kind === 'raw' ? `(${expr})` : jsonValue(expr, kind)}`).join(' || ')} || '}'`;

/**
 * The job wire shape as an admin sees it, in the order Caretaker's serializer writes it: the
 * schema's required keys in schema order, then its optional ones (the fields tenants do not see).
 */
const OPTIONAL_JOB_FIELDS = new Set(['on_hold_from_status_id', 'agent_uuid', 'agent_name', 'estimated_cost_pence', 'agreed_cost_pence']);
const SCHEMA_JOB_FIELDS: Array<[string, string, Kind]> = [
  ['uuid', 'j.uuid', 'str'], ['reference', 'j.reference', 'str'], ['title', 'j.title', 'str'], ['description', 'j.description', 'str'],
  ['priority', 'j.priority', 'num'], ['status_id', 'j.status_id', 'num'], ['status', 's.name', 'str'], ['is_open', 's.is_open', 'bool'],
  ['on_hold_from_status_id', 'j.on_hold_from_status_id', 'num'], ['job_type_id', 'j.job_type_id', 'num'], ['job_type', 'jt.name', 'str'],
  ['trade_id', 'j.trade_id', 'num'], ['trade', 'tr.name', 'str'], ['branch_uuid', 'b.uuid', 'str'], ['branch_name', 'b.name', 'str'],
  ['address_uuid', 'ad.uuid', 'str'], ['address_line1', 'ad.line1', 'str'], ['address_line2', 'ad.line2', 'str'], ['town', 'ad.town', 'str'],
  ['postcode', 'ad.postcode', 'str'], ['tenant_uuid', 'te.uuid', 'str'], ['tenant_name', 'te.name', 'str'],
  ['contractor_uuid', 'c.uuid', 'str'], ['contractor_name', 'c.company_name', 'str'], ['contractor_accepted_at', 'j.contractor_accepted_at', 'time'],
  ['agent_uuid', 'ag.uuid', 'str'], ['agent_name', 'ag.name', 'str'], ['time_range_id', 'j.time_range_id', 'num'], ['time_range', 'tmr.range_label', 'str'],
  ['estimated_cost_pence', 'j.estimated_cost_pence', 'num'], ['agreed_cost_pence', 'j.agreed_cost_pence', 'num'], ['currency', 'j.currency', 'str'],
  ['created_at', 'j.created_at', 'time'], ['updated_at', 'j.updated_at', 'time'], ['approved_at', 'j.approved_at', 'time'],
  ['assigned_at', 'j.assigned_at', 'time'], ['scheduled_for', 'j.scheduled_for', 'time'], ['attended_at', 'j.attended_at', 'time'],
  ['completed_at', 'j.completed_at', 'time'], ['invoiced_at', 'j.invoiced_at', 'time'], ['closed_at', 'j.closed_at', 'time'],
  ['cancelled_at', 'j.cancelled_at', 'time'], ['sla_state', 'sla.state', 'str'], ['sla_due_at', 'sla.due_at', 'time'],
];
const JOB_FIELDS = [...SCHEMA_JOB_FIELDS.filter((f) => !OPTIONAL_JOB_FIELDS.has(f[0])), ...SCHEMA_JOB_FIELDS.filter((f) => OPTIONAL_JOB_FIELDS.has(f[0]))];

/**
 * The CTE `me`: the caller (`columns` of auth_tokens t and users u) when the bearer token ($1, its
 * SHA-256 hex) is live and its account active.
 */
const me = (columns = 'u.agency_id') => `me as (select ${columns} from auth_tokens t join users u on u.id = t.user_id
  where t.token_hash = $1 and t.revoked_at is null and t.kind <> 'session' and t.expires_at > now() and u.status = 'active')`;
const ME = me();

/** What the job's wire shape reads besides the jobs row `j`: the lookups and the most urgent SLA clock. */
const JOB_JOINS = `join job_statuses s on s.id = j.status_id
  join job_types jt on jt.id = j.job_type_id
  join branches b on b.id = j.branch_id
  left join addresses ad on ad.id = j.address_id
  left join tenants te on te.id = j.tenant_id
  left join contractors c on c.id = j.contractor_id
  left join trades tr on tr.id = j.trade_id
  left join job_time_ranges tmr on tmr.id = j.time_range_id
  left join users ag on ag.id = j.agent_user_id
  left join lateral (
    select sc.state, sc.due_at from sla_clocks sc where sc.job_id = j.id and sc.state <> 'not_applicable'
    order by case sc.state when 'breached' then 0 when 'at_risk' then 1 when 'running' then 2 when 'paused' then 3 else 4 end, sc.due_at
    limit 1) sla on true`;

export const JOBS_SQL = `with ${ME},
page as (select p.* from me cross join lateral (
  select j.created_at, j.id, ${jsonObject(JOB_FIELDS)} as r
  from jobs j
  ${JOB_JOINS}
  where j.agency_id = me.agency_id and j.deleted_at is null
  order by j.created_at desc, j.id desc
  limit $2) p)
select exists (select 1 from me) as ok,
  '{"success":true,"data":[' || coalesce((select string_agg(r, ',' order by created_at desc, id desc) from page), '')
  || '],"count":' || least((select count(*) from (select 1 from jobs j where j.agency_id = (select agency_id from me) and j.deleted_at is null limit 10001) m), 10000)
  || ',"message":"Jobs retrieved"}' as body`;

/**
 * GET /job?uuid=U: the body of `GET /api/jobs/{uuid}` for an agency admin: the list's job shape
 * with `tenant_phone` (the tenant's mobile, else phone; the single job's extra key) among the
 * optional keys in schema order; $1 token hash, $2 job uuid. No body: 404.
 */
const DETAIL_FIELDS: Array<[string, string, Kind]> = [
  ...JOB_FIELDS.filter((f) => !OPTIONAL_JOB_FIELDS.has(f[0])),
  ...JOB_FIELDS.filter((f) => f[0] === 'on_hold_from_status_id'),
  ['tenant_phone', `(select coalesce(nullif(tp.mobile, ''), nullif(tp.phone, '')) from tenants tp where tp.id = j.tenant_id and tp.erased_at is null)`, 'str'],
  ...JOB_FIELDS.filter((f) => OPTIONAL_JOB_FIELDS.has(f[0]) && f[0] !== 'on_hold_from_status_id'),
];
export const JOB_SQL = `with ${ME}
select exists (select 1 from me) as ok,
  (select '{"success":true,"data":' || ${jsonObject(DETAIL_FIELDS)} || ',"message":"Job retrieved"}'
   from me, jobs j
   ${JOB_JOINS}
   where j.uuid = $2::uuid and j.agency_id = me.agency_id and j.deleted_at is null) as body`;

const HISTORY_FIELDS: Array<[string, string, Kind]> = [
  ['ID', 'h.id', 'num'], ['from_status_id', 'h.from_status_id', 'num'], ['from_status', 'fs.name', 'str'], ['to_status_id', 'h.to_status_id', 'num'],
  ['to_status', 'ts.name', 'str'], ['by_user_uuid', 'u.uuid', 'str'], ['by_user_name', 'u.name', 'str'], ['note', 'h.note', 'str'],
  ['created_at', 'h.created_at', 'time'],
];

/**
 * GET /history?uuid=U&limit=N&offset=M: the body of `GET /api/jobs/{uuid}/history` for an agency
 * admin (oldest first, the whole count); $1 token hash, $2 job uuid, $3 limit, $4 offset. No body: 404.
 */
export const HISTORY_SQL = `with ${ME},
job as (select j.id from me join jobs j on j.agency_id = me.agency_id where j.uuid = $2::uuid and j.deleted_at is null),
page as (select h.created_at, h.id, ${jsonObject(HISTORY_FIELDS)} as r
  from job join job_status_history h on h.job_id = job.id
  left join job_statuses fs on fs.id = h.from_status_id
  join job_statuses ts on ts.id = h.to_status_id
  left join users u on u.id = h.by_user_id
  order by h.created_at, h.id limit $3 offset $4)
select exists (select 1 from me) as ok,
  case when exists (select 1 from job) then '{"success":true,"data":[' || coalesce((select string_agg(r, ',' order by created_at, id) from page), '')
    || '],"count":' || (select count(*) from job_status_history h where h.job_id = (select id from job))
    || ',"message":"Job history retrieved"}' end as body`;

const ADDRESS_FIELDS: Array<[string, string, Kind]> = [
  ['ID', 'a.id', 'num'], ['uuid', 'a.uuid', 'str'], ['line1', 'a.line1', 'str'], ['line2', 'a.line2', 'str'], ['line3', 'a.line3', 'str'],
  ['sub_building', 'a.sub_building', 'str'], ['building_name', 'a.building_name', 'str'], ['building_number', 'a.building_number', 'str'],
  ['street', 'a.street', 'str'], ['locality', 'a.locality', 'str'], ['town', 'a.town', 'str'], ['county', 'a.county', 'str'],
  ['postcode', 'a.postcode', 'str'], ['latitude', 'a.latitude', 'num'], ['longitude', 'a.longitude', 'num'], ['building_uuid', 'bd.uuid', 'str'],
  ['is_communal', 'a.is_communal', 'bool'], ['is_hmo', 'a.is_hmo', 'bool'], ['branch_uuid', 'b.uuid', 'str'], ['branch_name', 'b.name', 'str'],
  ['created_at', 'a.created_at', 'time'], ['updated_at', 'a.updated_at', 'time'],
];

/**
 * GET /address?uuid=U: the body of `GET /api/addresses/{uuid}` for an agency admin; $1 token hash,
 * $2 address uuid. The address parts are written as stored: Caretaker derives them from the lines
 * when none is stored (addresses.service.ts partsOf), which this statement does not do; every
 * address the bench generates has its parts stored. No body: 404.
 */
export const ADDRESS_SQL = `with ${ME}
select exists (select 1 from me) as ok,
  (select '{"success":true,"data":' || ${jsonObject(ADDRESS_FIELDS)} || ',"message":"Address retrieved"}'
   from me, addresses a
   left join branches b on b.id = a.branch_id
   left join buildings bd on bd.id = a.building_id
   where a.uuid = $2::uuid and a.agency_id = me.agency_id) as body`;

/**
 * GET /jobs?address_uuid=A&limit=N: the body of `GET /api/jobs/manage?address_uuid=A&limit=N`
 * (the property page's jobs, newest first, count capped at 10,000); $1 token hash, $2 limit, $3 address uuid.
 */
export const JOBS_AT_ADDRESS_SQL = `with ${ME},
place as (select ad0.id from me join addresses ad0 on ad0.agency_id = me.agency_id where ad0.uuid = $3::uuid),
page as (select p.* from me cross join lateral (
  select j.created_at, j.id, ${jsonObject(JOB_FIELDS)} as r
  from jobs j
  ${JOB_JOINS}
  where j.agency_id = me.agency_id and j.deleted_at is null and j.address_id = (select id from place)
  order by j.created_at desc, j.id desc
  limit $2) p)
select exists (select 1 from me) as ok,
  '{"success":true,"data":[' || coalesce((select string_agg(r, ',' order by created_at desc, id desc) from page), '')
  || '],"count":' || least((select count(*) from (select 1 from jobs j where j.agency_id = (select agency_id from me) and j.deleted_at is null
    and j.address_id = (select id from place) limit 10001) m), 10000)
  || ',"message":"Jobs retrieved"}' as body`;

/** A London date 'YYYY-MM-DD' (text or date expression) for people, as humanDate writes it: "Thu 26 Nov 2026". */
const humanDateSql = (expr: string) => `to_char((${expr})::date, 'Dy FMDD Mon YYYY')`;

/**
 * The findings of a register row `r` on the London date `td.d`, as a JSON array of strings, in the
 * order and words of the compliance regulations' `findings` (src/modules/jobs/compliance/regulations.ts).
 */
const FINDINGS_SQL = `case when r.certificate_uuid is null then '[]' else '[' || coalesce((select string_agg(to_json(f)::text, ',' order by o)
  from unnest(array[
    case when r.type_code = 'epc' and r.epc_rating is null then 'Energy rating not recorded'
      when r.type_code = 'epc' and r.epc_rating in ('F', 'G') and r.exemption_until is not null and r.exemption_until::date >= td.d
        then 'Rated ' || r.epc_rating || ', below E: exempt until ' || ${humanDateSql('r.exemption_until')} || ' (PRS Exemptions Register)'
      when r.type_code = 'epc' and r.epc_rating in ('F', 'G') then 'Rated ' || r.epc_rating || ', below E: may not be let (MEES) without a registered exemption' end,
    case when r.type_code in ('eicr', 'communal_eicr') and r.outcome is null then 'Outcome (satisfactory or unsatisfactory) not recorded' end,
    case when r.outcome = 'unsatisfactory' and r.remedial_completed_on is null and r.remedial_due_on is not null
      then case when r.remedial_due_on::date < td.d then 'Remedial works overdue since ' else 'Remedial works due by ' end || ${humanDateSql('r.remedial_due_on')} end,
    case when r.tenant_copy_due_on is not null and r.tenant_copy_served_on is null
      then case when r.tenant_copy_due_on::date < td.d then 'Copy to the tenant overdue since ' else 'Copy to the tenant due by ' end || ${humanDateSql('r.tenant_copy_due_on')} end,
    case when r.type_code = 'smoke_co_alarms' and r.smoke_alarm_storeys is null then 'Alarms per storey and per room not recorded on this check'
      when r.type_code = 'smoke_co_alarms' and r.smoke_alarm_storeys < coalesce(r.storeys, 1)
        then 'Smoke alarm working on ' || r.smoke_alarm_storeys || ' of ' || coalesce(r.storeys, 1) || ' storeys' end,
    case when r.type_code = 'smoke_co_alarms' and r.smoke_alarm_storeys is not null then 'No working CO alarm recorded in: '
      || (select string_agg(room, ', ' order by n) from unnest(r.combustion_rooms) with ordinality x(room, n) where not (room = any(coalesce(r.co_alarm_rooms, '{}')))) end
  ]) with ordinality u(f, o) where f is not null), '') || ']' end`;

const REGISTER_ITEM_FIELDS: Array<[string, string, Kind | 'raw']> = [
  ['uuid', 'r.uuid', 'str'], ['status', 'r.status', 'str'], ['address_uuid', 'r.address_uuid', 'str'],
  ['address', `r.line1 || ', ' || r.town || ' ' || r.postcode`, 'str'], ['branch_uuid', 'r.branch_uuid', 'str'], ['branch_name', 'r.branch_name', 'str'],
  ['type_code', 'r.type_code', 'str'], ['type_name', 'r.type_name', 'str'], ['interval_months', 'r.interval_months', 'num'],
  ['required_document', 'r.required_document', 'str'], ['certificate_uuid', 'r.certificate_uuid', 'str'],
  ['issued_on', `to_char(r.issued_on, 'YYYY-MM-DD')`, 'str'], ['expires_on', `to_char(r.expires_on, 'YYYY-MM-DD')`, 'str'],
  ['expires_on_text', humanDateSql('r.expires_on'), 'str'], ['contractor_uuid', 'r.contractor_uuid', 'str'], ['contractor_name', 'r.contractor_name', 'str'],
  ['file_uuid', 'r.file_uuid', 'str'], ['regulation', 'r.regulation', 'str'], ['derived', 'r.derived', 'bool'], ['epc_rating', 'r.epc_rating', 'str'],
  ['exemption_until', 'r.exemption_until', 'str'], ['outcome', 'r.outcome', 'str'], ['remedial_due_on', 'r.remedial_due_on', 'str'],
  ['tenant_copy_due_on', 'r.tenant_copy_due_on', 'str'], ['tenant_copy_served_on', 'r.tenant_copy_served_on', 'str'], ['findings', FINDINGS_SQL, 'raw'],
];

/** The register's default order (sort=status, order=asc: urgency, expiry with none first, postcode, item, id). */
const REGISTER_ORDER = `case r.status when 'expired' then 0 when 'non_compliant' then 1 when 'missing' then 2 when 'due_soon' then 3 else 4 end,
  r.expires_on asc nulls first, r.postcode asc, r.type_name asc, r.id asc`;

/** The UK types as the register's seeding inserts them, the limit's $2. */
const UK_TYPES_JSON = JSON.stringify(UK_COMPLIANCE_TYPES);

/** The type columns the register's seeding writes ($2, a JSON array of the UK types, src/modules/jobs/compliance/compliance-types.ts). */
const SEED_COLUMNS = 'code, name, interval_months, at_tenancy_start, hmo_only, required_document, applies_to, regulation';

/**
 * GET /compliance?limit=N&offset=M: the body of `GET /api/compliance?limit=N&offset=M` (the
 * console's compliance page, default sort) for an agency admin, in one statement doing what
 * `listRegister` does per request: the UK types seeded (an insert that finds them there), the
 * register derived (an insert of the items the properties need and lack: none in the bench), then
 * every item's status on today's London date (from its latest certificate) with the default
 * order's keys only, the totals per status counted from them, the page's rows picked, and only
 * those rows' columns read and written out (certificate, contractor, file, findings in words,
 * expiry as "Wed 30 Sep 2026"): the same page-first shape as Caretaker's read, without its other
 * sorts' keys. $1 token hash, $2 the UK types (JSON), $3 limit, $4 offset. The
 * writes' rows would not be seen by the same statement's reads (one snapshot): on the bench's data
 * they write none, so the bytes are Caretaker's; on a register with something new to derive the
 * first answer would lack it.
 */
export const COMPLIANCE_SQL = `with ${ME},
seeded as (insert into compliance_item_types (uuid, agency_id, ${SEED_COLUMNS}, created_at, updated_at)
  select gen_random_uuid(), me.agency_id, ${SEED_COLUMNS.split(', ').map((c) => `x.${c}`).join(', ')}, now(), now()
  from me, jsonb_to_recordset($2::jsonb) as x(code text, name text, interval_months int, at_tenancy_start boolean, hmo_only boolean,
    required_document text, applies_to text, regulation text)
  -- Only when a UK type is missing or without its regulation, as Caretaker's seeding (typesSeeded).
  where (select count(*) from compliance_item_types s where s.agency_id = me.agency_id
      and s.code in (select r->>'code' from jsonb_array_elements($2::jsonb) r) and (s.custom or s.regulation <> '')) < jsonb_array_length($2::jsonb)
  on conflict (agency_id, code) do update set regulation = excluded.regulation, applies_to = excluded.applies_to
  where compliance_item_types.custom = false and compliance_item_types.regulation = ''),
derived as (insert into compliance_items (uuid, agency_id, address_id, type_id, derived, created_at, updated_at)
  select gen_random_uuid(), a.agency_id, a.id, t.id, true, now(), now()
  from me join addresses a on a.agency_id = me.agency_id
  join compliance_item_types t on t.agency_id = a.agency_id and t.retired_at is null
  left join buildings bl on bl.id = a.building_id
  where ((not a.is_communal and t.applies_to = 'dwelling')
    or (not a.is_communal and t.applies_to = 'gas' and a.gas_supply is distinct from false)
    or (not a.is_communal and t.applies_to = 'hmo' and a.is_hmo)
    or (a.is_communal and t.applies_to = 'communal')
    or (a.is_communal and t.applies_to = 'lift' and coalesce(bl.has_lift, false)))
    and not exists (select 1 from compliance_items i where i.address_id = a.id and i.type_id = t.id)
  on conflict (address_id, type_id) do nothing),
td as (select (now() at time zone 'Europe/London')::date as d),
-- Every item's status and sort keys only (its latest certificate's rule columns, its postcode and type name).
base as (select i.id, l.id as certificate_id, a.postcode, t.name as type_name, l.expires_on,
    case when l.id is null then 'missing'
      when l.expires_on is not null and l.expires_on < td.d then 'expired'
      when t.code = 'epc' and l.epc_rating in ('F', 'G') and (l.exemption_until is null or l.exemption_until < td.d) then 'non_compliant'
      when l.outcome = 'unsatisfactory' and l.remedial_completed_on is null and l.remedial_due_on < td.d then 'non_compliant'
      when t.code = 'smoke_co_alarms' and l.smoke_alarm_storeys is not null
        and (l.smoke_alarm_storeys < coalesce(a.storeys, 1) or not (a.combustion_rooms <@ coalesce(l.co_alarm_rooms, '{}'::text[]))) then 'non_compliant'
      when l.outcome = 'unsatisfactory' and l.remedial_completed_on is null then 'due_soon'
      when l.expires_on is null then 'valid'
      when l.expires_on <= td.d + t.due_soon_days then 'due_soon'
      else 'valid' end as status
  from me cross join td
  join compliance_items i on i.agency_id = me.agency_id
  join addresses a on a.id = i.address_id
  join compliance_item_types t on t.id = i.type_id
  left join lateral (
    select c.id, c.expires_on, c.epc_rating, c.exemption_until, c.outcome, c.remedial_due_on, c.remedial_completed_on, c.smoke_alarm_storeys, c.co_alarm_rooms
    from compliance_certificates c where c.item_id = i.id order by c.issued_on desc, c.id desc limit 1) l on true),
totals as (select count(*) filter (where status = 'valid') as valid, count(*) filter (where status = 'due_soon') as due_soon,
  count(*) filter (where status = 'expired') as expired, count(*) filter (where status = 'missing') as missing,
  count(*) filter (where status = 'non_compliant') as non_compliant, count(*) as n from base),
-- The page's rows picked, and only then their columns read and written out.
picked as (select r.id, r.certificate_id, r.status from base r order by ${REGISTER_ORDER} limit $3 offset $4),
page as (select r.*, ${rawObject(REGISTER_ITEM_FIELDS)} as j from (
  select i.id, i.uuid, a.uuid as address_uuid, a.line1, a.town, a.postcode, b.uuid as branch_uuid, b.name as branch_name,
    t.code as type_code, t.name as type_name, t.interval_months, t.required_document, t.regulation,
    l.uuid as certificate_uuid, l.issued_on, l.expires_on, k.uuid as contractor_uuid, k.company_name as contractor_name,
    f.uuid as file_uuid, a.storeys, a.combustion_rooms, i.derived,
    l.epc_rating, to_char(l.exemption_until, 'YYYY-MM-DD') as exemption_until, l.outcome,
    to_char(l.remedial_due_on, 'YYYY-MM-DD') as remedial_due_on, to_char(l.remedial_completed_on, 'YYYY-MM-DD') as remedial_completed_on,
    to_char(l.tenant_copy_due_on, 'YYYY-MM-DD') as tenant_copy_due_on, to_char(l.tenant_copy_served_on, 'YYYY-MM-DD') as tenant_copy_served_on,
    l.smoke_alarm_storeys, l.co_alarm_rooms, p.status
  from picked p
  join compliance_items i on i.id = p.id
  join addresses a on a.id = i.address_id
  join compliance_item_types t on t.id = i.type_id
  left join branches b on b.id = a.branch_id
  left join compliance_certificates l on l.id = p.certificate_id
  left join contractors k on k.id = l.contractor_id
  left join job_files f on f.id = l.job_file_id) r cross join td)
select exists (select 1 from me) as ok,
  '{"success":true,"data":[' || coalesce((select string_agg(j, ',' order by ${REGISTER_ORDER}) from page r), '') || '],"count":' || t.n
  || ',"totals":{"valid":' || t.valid || ',"due_soon":' || t.due_soon || ',"expired":' || t.expired || ',"missing":' || t.missing
  || ',"non_compliant":' || t.non_compliant || '},"message":"Compliance register retrieved"}' as body
from totals t`;

const ACTIVITY_FIELDS: Array<[string, string, Kind]> = [
  ['ID', 'a.id', 'num'], ['user_id', 'coalesce(a.user_id, 0)', 'num'], ['user_name', 'a.user_name', 'str'], ['action', 'a.action', 'str'],
  ['resource_type', 'a.resource_type', 'str'], ['resource_id', 'a.resource_id', 'num'], ['ip_address', 'a.ip_address', 'str'],
  ['created_at', 'a.created_at', 'time'],
];

/**
 * The activity page and its capped count for one set of filters (written out per set, as
 * Caretaker's query builder does, so each statement's plan fits its filters).
 * @param filters SQL conditions over alias `a`, parameters from $4 on ($1 token hash, $2 limit, $3 offset)
 */
const activitySql = (filters: string) => {
  const where = `a.agency_id = me.agency_id${filters ? ` and ${filters}` : ''}`;
  return `with ${ME},
page as (select a.created_at, a.id, ${jsonObject(ACTIVITY_FIELDS)} as r from me cross join lateral (
  select a.* from activity_log a
  where ${where} order by a.created_at desc, a.id desc limit $2 offset $3) a),
total as (select count(*) as n from me cross join lateral (select 1 from activity_log a where ${where} limit 10001) m)
select exists (select 1 from me) as ok,
  '{"success":true,"data":[' || coalesce((select string_agg(r, ',' order by created_at desc, id desc) from page), '')
  || '],"count":' || least((select n from total), 10000)
  || ',"message":"Activity log retrieved"}' as body`;
};
/** $4 user id, $5 and $6 the created_at range. */
export const ACTIVITY_USER_RANGE_SQL = activitySql('a.user_id = $4 and a.created_at >= $5 and a.created_at < $6');
export const ACTIVITY_ALL_SQL = activitySql('');

/**
 * GET /csrf-token: the caller's spent and expired CSRF tokens deleted and a new one stored, as
 * `issueCsrfToken` does; $1 bearer token hash, $2 the new token's hash. Body built in JS (the token
 * is made there).
 */
export const CSRF_SQL = `with ${me('t.id as token_id, u.agency_id')},
spent as (delete from csrf_tokens where auth_token_id = (select token_id from me) and (expires_at <= now() or used_at is not null) returning id),
ins as (insert into csrf_tokens (auth_token_id, token_hash, created_at, expires_at)
  select token_id, $2, now(), now() + interval '${CSRF_TTL_S} seconds' from me returning expires_at)
select exists (select 1 from me) as ok, (select to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from ins) as expires_at`;

/**
 * GET /csrf-token with Redis: the bearer token checked (the CSRF token itself goes to Redis, as
 * Caretaker keeps it then); $1 bearer token hash. The expiry is the response's.
 */
export const CSRF_CHECK_SQL = `with ${me('t.id as token_id')}
select exists (select 1 from me) as ok, to_char((now() + interval '${CSRF_TTL_S} seconds') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at`;

/**
 * POST /jobs: what `POST /api/jobs/manage` writes for an agency admin, in one statement: the CSRF
 * token consumed (single use), the branch resolved in the caller's agency (open), the reference
 * taken, the job, its first history row, its activity entry and its `job.created` outbox row
 * inserted, the branch's SLA rules read (the bench's branches have none, as Caretaker finds), and
 * the created job's JSON as the response body. $1 token hash, $2 CSRF token hash (with Redis:
 * true when Redis held the token, which it gave up in the same GETDEL), $3 branch uuid, $4 title,
 * $5 priority. No CSRF token: not ok (403).
 */
const createJobSql = (csrf: string) => `with ${me('t.id as token_id, u.id as user_id, u.name as user_name, u.agency_id')},
csrf as (${csrf}),
br as (select b.id, b.agency_id from branches b, me where exists (select 1 from csrf) and b.uuid = $3::uuid and b.agency_id = me.agency_id and b.closed_at is null),
rules as (select count(*) as n from branch_sla_rules r, br where r.branch_id = br.id and r.deleted_at is null),
ctr as (insert into agency_counters (agency_id, name, value) select agency_id, 'job_reference', 1 from br
  on conflict (agency_id, name) do update set value = agency_counters.value + 1 returning value),
j as (insert into jobs (uuid, agency_id, branch_id, reference, title, description, priority, status_id, job_type_id, reported_by_user_id, created_at, updated_at)
  select gen_random_uuid(), br.agency_id, br.id, 'JOB-' || case when length(ctr.value::text) >= 6 then ctr.value::text else lpad(ctr.value::text, 6, '0') end,
    $4, '', $5::int, 1, 1, me.user_id, now(), now() from br, ctr, me returning *),
h as (insert into job_status_history (job_id, from_status_id, to_status_id, by_user_id, note, created_at) select id, null, 1, reported_by_user_id, null, created_at from j),
a as (insert into activity_log (agency_id, user_id, user_name, action, resource_type, resource_id, ip_address, details, created_at)
  select j.agency_id, me.user_id, me.user_name, 'job.create', 'job', j.id, '127.0.0.1', null, j.created_at from j, me),
o as (insert into outbox (event_id, name, version, agency_id, payload, occurred_at)
  select gen_random_uuid(), 'job.created', 1, agency_id, jsonb_build_object('job_id', id, 'job_uuid', uuid, 'reference', reference, 'branch_id', branch_id,
    'status_id', status_id, 'priority', priority, 'tenant_id', tenant_id), created_at from j)
select exists (select 1 from me) as ok, exists (select 1 from csrf) as csrf, (select n from rules) as rules,
  (select '{"success":true,"data":' || ${jsonObject(JOB_FIELDS)} || ',"message":"Job created"}'
   from j
   ${JOB_JOINS}) as body`;
export const CREATE_JOB_SQL = createJobSql(`update csrf_tokens set used_at = now() where token_hash = $2 and auth_token_id = (select token_id from me)
  and used_at is null and expires_at > now() returning id`);
export const CREATE_JOB_REDIS_SQL = createJobSql('select 1 where $2::boolean');

/** POST /login, first statement: the active account by e-mail ($1, lower case) with its password hash. */
export const LOGIN_FIND_SQL = `select u.id, u.password_hash, u.agency_id, u.name, u.email, r.name as role_name
  from users u join roles r on r.id = u.role_id where u.email = $1 and u.status = 'active'`;

/**
 * POST /login, second statement (after the password matched): what `login` writes, in one
 * statement: the account's earlier tokens revoked, the 90-day bearer token and the 2-hour session
 * stored, the login time stamped and the `auth.login` activity entry written. $1 user id,
 * $2 token hash, $3 session hash, $4 agency id, $5 user name; returns the token's expiry.
 */
export const LOGIN_WRITE_SQL = `with revoked as (update auth_tokens set revoked_at = now(), revoked_reason = 'superseded by a new login'
    where user_id = $1 and revoked_at is null returning id),
  tokens as (insert into auth_tokens (user_id, token_hash, kind, remember_me, created_at, expires_at, last_used_at, ip_address, user_agent)
    values ($1, $2, 'login', false, now(), now() + interval '${LOGIN_LIFETIME_S} seconds', now(), '127.0.0.1', null),
           ($1, $3, 'session', false, now(), now() + interval '${SESSION_LIFETIME_S} seconds', now(), '127.0.0.1', null)
    returning kind, expires_at),
  stamp as (update users set last_login_at = now() where id = $1),
  entry as (insert into activity_log (agency_id, user_id, user_name, action, resource_type, resource_id, ip_address, details, created_at)
    select $4, $1, $5, 'auth.login', 'user', $1, '127.0.0.1', json_build_object('revoked_tokens', (select count(*) from revoked), 'remember_me', false)::jsonb, now())
select to_char((select expires_at from tokens where kind = 'login') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at`;

interface Runner {
  (name: string, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>>;
}

/**
 * One prepared statement per name on PostgreSQL, on the limit's own pool (as many connections as
 * Caretaker's) whose sessions keep generic plans: each statement is planned once per connection
 * (planning the ten-table join and the long JSON expression took longer than running them).
 * Plain queries on PGlite.
 */
function runner(deps: AppDeps): Runner {
  if (deps.config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: deps.config.databaseUrl,
      max: deps.config.databasePoolMax,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    return async (name, text, values) => (await pool.query({ name, text, values })).rows as Array<Record<string, unknown>>;
  }
  return async (_name, text, values) => (await deps.db.executeQuery(CompiledQuery.raw(text, values))).rows as Array<Record<string, unknown>>;
}

const tokenHash = (authorization: string | undefined): string | null => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m?.[1] ? createHash('sha256').update(m[1], 'utf8').digest('hex') : null;
};

/** Same-day UTC range as the app's `utcDayRange`: from the start of from_date to the end of to_date. */
const dayStart = (d: string | null) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T00:00:00Z` : null);
const dayEnd = (d: string | null) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString() : null);
const int = (v: string | null, fallback: number) => (v && /^\d+$/.test(v) ? Number(v) : fallback);

/** The request body as text. */
const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Starts the limit server on 127.0.0.1:port; resolves to its close function. */
export async function startLimit(deps: AppDeps, port: number): Promise<() => Promise<void>> {
  const run = runner(deps);
  const send = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const login = async (text: string, res: http.ServerResponse): Promise<[number, string]> => {
    const body = JSON.parse(text) as { email?: string; password?: string };
    const [account] = await run('limit_login_find', LOGIN_FIND_SQL, [String(body.email ?? '').toLowerCase()]);
    if (!account || !(await verifyPassword(String(account.password_hash), String(body.password ?? '')))) {
      return [401, '{"success":false,"error":"Invalid e-mail or password"}'];
    }
    const [token, session] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
    const [written] = await run('limit_login_write', LOGIN_WRITE_SQL, [account.id, sha(token), sha(session), account.agency_id, account.name]);
    res.setHeader('set-cookie', `caretaker_session=${session}; Max-Age=${SESSION_LIFETIME_S}; Path=/; HttpOnly; SameSite=Lax`);
    const user = JSON.stringify({ name: account.name, email: account.email, account_type: account.role_name });
    return [
      200,
      `{"success":true,"token":"${token}","token_type":"Bearer","expires_at":"${String(written?.expires_at)}","user":${user},` +
        `"usage":${JSON.stringify('Send the token on every request as the header "Authorization: Bearer <token>". Fetch a CSRF token from GET /api/security/csrf-token before each POST, PUT or DELETE.')}}`,
    ];
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://limit');
    const q = url.searchParams;
    const answer = async (): Promise<[number, string]> => {
      if (url.pathname === '/status') {
        const [rows] = await Promise.all([run('limit_status', 'select 1 as one', []), deps.redis?.ping()]);
        const checks = `{"database":"ok","database_engine":"${deps.engine}","cache":"${deps.redis ? 'ok' : 'not_configured'}","rate_limit_store":"${deps.limiter.backend}"}`;
        return [200, `{"success":true,"data":{"status":"${rows.length ? 'ok' : 'down'}","version":${JSON.stringify(deps.config.version)},"uptime_s":${Math.floor((Date.now() - deps.startedAt.getTime()) / 1000)},"checks":${checks}},"message":"Platform status: ok"}`];
      }
      if (url.pathname === '/login' && req.method === 'POST') return login(await readBody(req), res);
      const hash = tokenHash(req.headers.authorization);
      if (!hash) return [401, '{"success":false,"error":"Invalid bearer token"}'];
      if (url.pathname === '/csrf-token' && req.method === 'GET') {
        const token = randomBytes(32).toString('hex');
        const csrfHash = createHash('sha256').update(token, 'utf8').digest('hex');
        // With Redis the token's key is set beside the bearer check (keyed by the bearer token's hash;
        // an unknown bearer's key just expires).
        const [[csrf]] = deps.redis
          ? await Promise.all([run('limit_csrf_check', CSRF_CHECK_SQL, [hash]), deps.redis.set(`limit:csrf:${hash}:${csrfHash}`, '1', 'EX', CSRF_TTL_S)])
          : [await run('limit_csrf', CSRF_SQL, [hash, csrfHash])];
        if (!csrf?.ok) return [401, '{"success":false,"error":"Invalid bearer token"}'];
        return [200, `{"success":true,"data":{"token":"${token}","expires_at":"${String(csrf.expires_at)}"},"message":"CSRF token issued"}`];
      }
      if (url.pathname === '/jobs' && req.method === 'POST') {
        const body = JSON.parse(await readBody(req)) as { title?: string; priority?: number; branch_uuid?: string };
        const csrfHash = createHash('sha256').update(String(req.headers['x-csrf-token'] ?? ''), 'utf8').digest('hex');
        const [created] = deps.redis
          ? await run('limit_create_job_redis', CREATE_JOB_REDIS_SQL, [hash, (await deps.redis.getdel(`limit:csrf:${hash}:${csrfHash}`)) !== null, body.branch_uuid, body.title, body.priority])
          : await run('limit_create_job', CREATE_JOB_SQL, [hash, csrfHash, body.branch_uuid, body.title, body.priority]);
        if (!created?.ok) return [401, '{"success":false,"error":"Invalid bearer token"}'];
        if (!created.csrf) return [403, '{"success":false,"error":"Invalid or missing CSRF token"}'];
        return created.body ? [201, created.body as string] : [404, '{"success":false,"error":"Branch not found"}'];
      }
      let row: Record<string, unknown> | undefined;
      if (url.pathname === '/jobs' && q.get('address_uuid')) [row] = await run('limit_jobs_at_address', JOBS_AT_ADDRESS_SQL, [hash, int(q.get('limit'), 50), q.get('address_uuid')]);
      else if (url.pathname === '/jobs') [row] = await run('limit_jobs', JOBS_SQL, [hash, int(q.get('limit'), 50)]);
      else if (url.pathname === '/compliance') [row] = await run('limit_compliance', COMPLIANCE_SQL, [hash, UK_TYPES_JSON, int(q.get('limit'), 50), int(q.get('offset'), 0)]);
      else if (url.pathname === '/job' || url.pathname === '/address') {
        [row] = url.pathname === '/job' ? await run('limit_job', JOB_SQL, [hash, q.get('uuid')]) : await run('limit_address', ADDRESS_SQL, [hash, q.get('uuid')]);
        if (row?.ok && !row.body) return [404, `{"success":false,"error":"${url.pathname === '/job' ? 'Job' : 'Address'} not found"}`];
      } else if (url.pathname === '/history') {
        [row] = await run('limit_history', HISTORY_SQL, [hash, q.get('uuid'), int(q.get('limit'), 50), int(q.get('offset'), 0)]);
        if (row?.ok && !row.body) return [404, '{"success":false,"error":"Job not found"}'];
      }
      else if (url.pathname === '/activity' && q.get('user_id') && q.get('from_date') && q.get('to_date'))
        [row] = await run('limit_activity_user_range', ACTIVITY_USER_RANGE_SQL, [
          hash, int(q.get('limit'), 50), int(q.get('offset'), 0), int(q.get('user_id'), 0), dayStart(q.get('from_date')), dayEnd(q.get('to_date')),
        ]);
      else if (url.pathname === '/activity' && !q.get('user_id') && !q.get('from_date') && !q.get('to_date'))
        [row] = await run('limit_activity_all', ACTIVITY_ALL_SQL, [hash, int(q.get('limit'), 50), int(q.get('offset'), 0)]);
      else return [404, '{"success":false,"error":"Not found"}'];
      return row?.ok ? [200, row.body as string] : [401, '{"success":false,"error":"Invalid bearer token"}'];
    };
    answer().then(
      ([status, body]) => send(res, status, body),
      (error: unknown) => send(res, 500, JSON.stringify({ success: false, error: String(error) })),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
