/**
 * The bench's honest limit: what this machine can do for the same response without our stack.
 * A bare `node:http` server, one prepared SQL statement per request (the bearer token checked in
 * the same statement), the response body built by PostgreSQL as text and written as is. The
 * runner checks byte for byte that each limit route answers what Caretaker answers, so the
 * ratio Caretaker / limit compares equal work.
 *
 * Routes (the bench's scenarios, agency-admin scope only; anything else 404):
 * - GET /jobs?limit=N: the body of `GET /api/jobs/manage?limit=N` (newest first, exact count);
 * - GET /activity?user_id=U&from_date=D&to_date=D&limit=N, or ?limit=N&offset=M: the body of
 *   `GET /api/admin/activity-log` with those parameters (count capped at 10,000);
 * - GET /status: the body of the public `GET /api/system/status` (one `select 1` and a Redis PING).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import type { AppDeps } from '../src/app-deps.ts';
import { jsonValueSql, type JsonKind } from '../src/db/json-sql.ts';

/** A JSON fragment for a column: `"name":<value>` built in SQL (the same value writer as the jobs list). */
type Kind = JsonKind;
const jsonValue = jsonValueSql;
const jsonObject = (fields: Array<[string, string, Kind]>): string =>
  `'{' || ${fields.map(([name, expr, kind], i) => `'${i ? ',' : ''}"${name}":' || ${jsonValue(expr, kind)}`).join(' || ')} || '}'`;

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

/** The caller's agency when the bearer token ($1, its SHA-256 hex) is live and its account active. */
const ME = `me as (select u.agency_id from auth_tokens t join users u on u.id = t.user_id
  where t.token_hash = $1 and t.revoked_at is null and t.kind <> 'session' and t.expires_at > now() and u.status = 'active')`;

export const JOBS_SQL = `with ${ME},
page as (select p.* from me cross join lateral (
  select j.created_at, j.id, ${jsonObject(JOB_FIELDS)} as r
  from jobs j
  join job_statuses s on s.id = j.status_id
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
    limit 1) sla on true
  where j.agency_id = me.agency_id and j.deleted_at is null
  order by j.created_at desc, j.id desc
  limit $2) p)
select exists (select 1 from me) as ok,
  '{"success":true,"data":[' || coalesce((select string_agg(r, ',' order by created_at desc, id desc) from page), '')
  || '],"count":' || (select count(*) from jobs j where j.agency_id = (select agency_id from me) and j.deleted_at is null)
  || ',"message":"Jobs retrieved"}' as body`;

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

/** Starts the limit server on 127.0.0.1:port; resolves to its close function. */
export async function startLimit(deps: AppDeps, port: number): Promise<() => Promise<void>> {
  const run = runner(deps);
  const send = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://limit');
    const q = url.searchParams;
    const answer = async (): Promise<[number, string]> => {
      if (url.pathname === '/status') {
        const [rows] = await Promise.all([run('limit_status', 'select 1 as one', []), deps.redis?.ping()]);
        return [200, `{"success":true,"data":{"status":"${rows.length ? 'ok' : 'down'}","version":${JSON.stringify(deps.config.version)}},"message":"Platform status: ok"}`];
      }
      const hash = tokenHash(req.headers.authorization);
      if (!hash) return [401, '{"success":false,"error":"Invalid bearer token"}'];
      let row: Record<string, unknown> | undefined;
      if (url.pathname === '/jobs') [row] = await run('limit_jobs', JOBS_SQL, [hash, int(q.get('limit'), 50)]);
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
