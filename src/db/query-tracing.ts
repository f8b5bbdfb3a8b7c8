/**
 * SQL spans (docs/operations.md "Tracing"): one span per statement the application runs through
 * Kysely, on both engines (PGlite has no pg driver to instrument). The connections of our own
 * drivers (PgConnection in src/db/pg-driver.ts, PgliteConnection in src/db/pglite-driver.ts) run
 * each statement through `traceStatement`; nothing of Kysely, pg or PGlite is wrapped or replaced.
 * With tracing off `traceStatement` is one check and a direct call.
 *
 * A span is made only inside another span (a request, a job, a task), so the relay's and the
 * queue's polling make none. Its name is the operation and table (`SELECT jobs`); its attributes
 * are the OpenTelemetry database conventions: `db.system.name` (postgresql), `db.query.text` (the
 * statement with `$n` placeholders: values are never recorded), `db.operation.name`,
 * `db.collection.name` and `caretaker.db.engine` (pglite or postgres). Under it the pg
 * instrumentation is suppressed, so a statement on PostgreSQL is one span, not two.
 */
import { inSpan, tracingEnabled } from '../lib/tracing.ts';

const TABLE = /\b(?:from|into|update|join)\s+"?([a-z_][a-z0-9_]*)"?(?:\."?([a-z_][a-z0-9_]*)"?)?/i;

type Summary = { name: string; operation: string; table: string | undefined };

/**
 * The statement after a leading WITH's common table expressions, which is what the statement does
 * (`with "counter" as (insert into agency_counters ...) insert into "jobs" ...` inserts a job); the
 * statement itself when it has none.
 */
function mainStatement(sql: string): string {
  if (!/^\s*with\b/i.test(sql)) return sql;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quoted) {
      if (c === "'") quoted = false;
    } else if (c === "'") {
      quoted = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      // A column list (`name (a, b) as (...)`) or another expression (`, name as (...)`) may follow.
      const rest = sql.slice(i + 1);
      if (!/^\s*(,|as\b)/i.test(rest)) return rest;
    }
  }
  return sql;
}

/** `SELECT jobs`-style span name and attributes of one statement (of its main statement after any WITH). */
export function statementSummary(text: string): Summary {
  const sql = mainStatement(text);
  const operation = (/^\s*([a-z]+)/i.exec(sql)?.[1] ?? 'SQL').toUpperCase();
  const m = TABLE.exec(sql);
  const table = m ? (m[2] ?? m[1]) : undefined;
  return { name: table ? `${operation} ${table}` : operation, operation, table };
}

/** Summaries by statement text: the application runs the same few hundred statements again and again. */
const summaries = new Map<string, Summary>();
const SUMMARIES_MAX = 2_000;

/** statementSummary, remembered per statement text (the cache starts again when full). */
function summaryOf(sql: string): Summary {
  let s = summaries.get(sql);
  if (!s) {
    if (summaries.size >= SUMMARIES_MAX) summaries.clear();
    summaries.set(sql, (s = statementSummary(sql)));
  }
  return s;
}

/**
 * Runs one statement inside a database span (see the file comment); called by name by the
 * connections of src/db/pg-driver.ts and src/db/pglite-driver.ts for every statement they send,
 * transaction commands included. With tracing off it is `run()` and nothing else.
 * @param sql the statement's text with `$n` placeholders (recorded; values never are)
 * @param engine recorded as `caretaker.db.engine`
 */
export function traceStatement<T>(sql: string, engine: 'pglite' | 'postgres', run: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return run();
  const s = summaryOf(sql);
  return inSpan(
    s.name,
    {
      kind: 'client',
      requireParent: true,
      suppressInside: true,
      attributes: {
        'db.system.name': 'postgresql',
        'db.query.text': sql,
        'db.operation.name': s.operation,
        'db.collection.name': s.table,
        'caretaker.db.engine': engine,
      },
    },
    run,
  );
}
