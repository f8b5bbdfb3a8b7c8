/**
 * Reading the activity (audit) log (spec 4.6, 2.3; docs/administration.md): the caller's scope, the
 * date range and the wire shape of an entry. The SQL is in the activity module.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { utcDayRange } from '../../../http/date-range.ts';
import { schemaObjectSql } from '../../../db/json-sql.ts';
import { likeEscape } from '../../../db/text-match.ts';
import { ENTRY_RESOURCE_COLUMNS, listActivityJson, type ActivityFilter } from '../../../core/activity/index.ts';
import { ActivityLogEntry } from './activity-log.schemas.ts';

/** Filters of GET /api/admin/activity-log (ISO dates; ids are integers). */
export interface ActivityLogQuery {
  user_id?: number | undefined;
  action?: string | undefined;
  action_prefix?: string | undefined;
  resources?: boolean | undefined;
  from_date?: string | undefined;
  to_date?: string | undefined;
  before?: number | undefined;
  after?: number | undefined;
  limit: number;
  offset: number;
}

/** The repository's filter for the caller and the query (agency scope, UTC day range). */
function filterOf(auth: AuthContext, q: ActivityLogQuery): ActivityFilter {
  const { from, to } = utcDayRange(q.from_date, q.to_date);
  const agencyId = readAgency(auth);
  return {
    agencyId: agencyId ?? undefined,
    userId: q.user_id,
    action: q.action,
    actionPattern: q.action_prefix === undefined ? undefined : `${likeEscape(q.action_prefix)}%`,
    from,
    to,
    before: q.before,
    after: q.after,
    limit: q.limit,
    offset: q.offset,
  };
}

/** An entry of activity_log (alias p) as its wire object: ID from id, user_id 0 when null. */
/** The SQL writing one activity_log row (subquery `p`) as its wire object. */
export const ENTRY_JSON = schemaObjectSql(ActivityLogEntry, 'p', { columns: { ID: 'p.id', user_id: 'coalesce(p.user_id, 0)' }, include: (_k, required) => required });

/** ENTRY_JSON with the optional keys that name and link the record and a job move's statuses (?resources=true). */
export const ENTRY_JSON_WITH_RESOURCES = schemaObjectSql(ActivityLogEntry, 'p', {
  columns: { ID: 'p.id', user_id: 'coalesce(p.user_id, 0)', ...ENTRY_RESOURCE_COLUMNS },
});

/**
 * GET /api/admin/activity-log: the same page as readActivityLog, written as JSON by the database
 * in one statement with its count, for the route to wrap in the list envelope.
 * With `resources` each entry also names and links its record (ENTRY_JSON_WITH_RESOURCES).
 * @returns { json: the entries' objects joined by commas, total, capped }
 * @throws 400 naming to_date when to_date is before from_date
 */
export async function readActivityLogJson(deps: AppDeps, auth: AuthContext, q: ActivityLogQuery) {
  return listActivityJson(deps.db, filterOf(auth, q), q.resources === true ? ENTRY_JSON_WITH_RESOURCES : ENTRY_JSON);
}
