/**
 * The Job's wire shape, defined once: the Job schema of jobs.schemas.ts and the rule of which of
 * its keys a caller sees (costs, owning agent and hold origin not for tenants). The list writes it
 * in SQL (a page never becomes JavaScript objects), a single job and the reports' rows in
 * JavaScript; both come from src/db/json-sql.ts, so the bytes are the same
 * (test/jobs/jobs/visibility.test.ts compares them).
 */
import { schemaObject, schemaObjectSql, type IncludeKey } from '../../../db/json-sql.ts';
import { Job, type JobDto } from './jobs.schemas.ts';

/** Keys only the single-job read adds (jobs.service.ts getJob), never written by the list. */
const DETAIL_ONLY = new Set(['tenant_phone']);

const STAFF_KEYS: IncludeKey = (key) => !DETAIL_ONLY.has(key);
const TENANT_KEYS: IncludeKey = (key, required) => !DETAIL_ONLY.has(key) && required;

/**
 * The keys a caller sees: every key for staff and contractors (`internal`), the required ones for
 * tenants; never the detail-only ones (added by getJob for whoever may see them).
 */
function jobKeys(internal: boolean): IncludeKey {
  return internal ? STAFF_KEYS : TENANT_KEYS;
}

/**
 * The SQL expression (over a subquery aliased `p` whose columns carry the Job field names, as
 * JOB_DETAIL_COLUMNS and the SLA columns do) that writes one job as a JSON object.
 * @param internal whether the optional fields (costs, owning agent, hold origin) are written: false for tenants
 */
export function jobJsonSql(internal: boolean): string {
  return schemaObjectSql(Job, 'p', { include: jobKeys(internal) });
}

/**
 * One job row (JOB_DETAIL_COLUMNS and the SLA columns) as its wire object.
 * @param internal as for jobJsonSql
 */
export function jobObject(row: Record<string, unknown>, internal: boolean): JobDto {
  return schemaObject<JobDto>(Job, row, jobKeys(internal));
}
