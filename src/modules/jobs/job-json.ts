/**
 * The job wire shape (the Job schema of jobs.schemas.ts) written as JSON text by the database, so
 * that a page of the jobs list (spec 4.16) never becomes JavaScript objects: PostgreSQL formats
 * each row and joins them, and the route wraps the text in the list envelope (src/db/json-sql.ts;
 * bench/README.md). The bytes match GET /api/jobs/{uuid}'s `data` (test/jobs/visibility.test.ts).
 */
import { schemaObjectSql } from '../../db/json-sql.ts';
import { Job } from './jobs.schemas.ts';

/**
 * The SQL expression (over a subquery aliased `p` whose columns carry the Job field names, as
 * JOB_DETAIL_COLUMNS and the SLA columns do) that writes one job as a JSON object.
 * @param internal whether the optional fields (costs, owning agent, hold origin) are written: false for tenants
 */
export function jobJsonSql(internal: boolean): string {
  return schemaObjectSql(Job, 'p', { include: (_key, required) => internal || required });
}
