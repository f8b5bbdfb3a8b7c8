import { describe, expect, it } from 'vitest';
import { statementSummary } from '../../src/db/query-tracing.ts';

// A SQL span is named for what its statement does (docs/operations.md "Tracing").
describe('SQL span names', () => {
  it('name a plain statement by its operation and first table', () => {
    expect(statementSummary('select "id" from "jobs" where "id" = $1')).toEqual({ name: 'SELECT jobs', operation: 'SELECT', table: 'jobs' });
    expect(statementSummary('insert into "outbox" ("event_id") values ($1)').name).toBe('INSERT outbox');
    expect(statementSummary('begin').name).toBe('BEGIN');
  });

  it('name a statement with common table expressions by its main statement', () => {
    // The job's insert takes the agency's counter in a CTE (src/modules/jobs/jobs/jobs.repository.ts).
    const jobInsert = 'with "counter" as (insert into "agency_counters" ("agency_id", "name", "value") values ($1, $2, $3) returning "value") ' +
      'insert into "jobs" ("id", "reference") values ($4, (select \'JOB-\' || "counter"."value"::text from "counter"))';
    expect(statementSummary(jobInsert)).toEqual({ name: 'INSERT jobs', operation: 'INSERT', table: 'jobs' });
    expect(statementSummary("WITH a (x, y) AS (select 1, 2), b as (select ')' from t) update \"invoices\" set x = 1").name).toBe('UPDATE invoices');
    expect(statementSummary('with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select n from t').name).toBe('SELECT t');
  });

  it('fall back to the first word for a statement it cannot read', () => {
    expect(statementSummary('with broken (select').name).toBe('WITH');
    expect(statementSummary('').name).toBe('SQL');
  });
});
