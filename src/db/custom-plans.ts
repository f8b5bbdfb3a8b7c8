/**
 * Queries planned for their values (docs/architecture.md "Prepared statements"): the sessions plan
 * every statement with parameters generically (PLANNER_SETTINGS in src/db/database.ts); the few
 * whose best plan depends on a value run here.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { Trx } from './types.ts';

/**
 * Runs `run` in a read-only transaction whose statements are planned for their parameters' values
 * (`set local plan_cache_mode = force_custom_plan`), instead of the sessions' generic plans
 * (PLANNER_SETTINGS in src/db/database.ts). For a query whose best plan depends on a value: the
 * global search, where a word in nearly every job is best found by walking the newest jobs and a
 * rare one through the full-text index (docs/architecture.md "Prepared statements").
 * @returns what `run` returns
 */
export async function withCustomPlans<T>(db: Kysely<Database>, run: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().setAccessMode('read only').execute(async (trx) => {
    await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    return run(trx);
  });
}
