/**
 * Compiled queries kept per shape, so a hot read compiles its SQL once rather than on every
 * request (building and compiling the jobs list's ten-table query with Kysely took about 1 ms a
 * request; bench/README.md). A query is built once per shape with `Slot` placeholders where the
 * request's values go; each request puts its values in the placeholders' parameter positions.
 * On PostgreSQL the text runs as a named prepared statement (outside a transaction on the pool
 * given, inside one on its connection: src/db/prepared.ts), so the server parses it once per
 * connection and may keep a generic plan.
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, type Compilable } from 'kysely';
import type pg from 'pg';
import { asPrepared } from './prepared.ts';
import type { DbOrTrx } from './types.ts';

/** A placeholder for the request value named `name` (pass it where the value would go, cast to its type). */
export class Slot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** A placeholder typed as the value it stands for. */
export function slot<T>(name: string): T {
  return new Slot(name) as unknown as T;
}

interface Template {
  sql: string;
  parameters: readonly unknown[];
  name: string;
}

/** Compiled texts by shape key; one per query shape (at most `max`, the oldest dropped first). */
export class QueryTemplates {
  private readonly templates = new Map<string, Template>();
  private readonly max: number;

  constructor(max = 500) {
    this.max = max;
  }

  /**
   * Runs the query of shape `key` with `values` in its slots.
   * @param key what decides the SQL text (which filters are set, sort, scope kind): same key, same text
   * @param build builds the query with `slot(name)` wherever a value of `values` goes
   * @param pool the pg pool: with it and outside a transaction the text runs as a named prepared statement
   * @returns the rows, as Kysely would return them
   * @throws Error when a slot has no value
   */
  async rows<R>(db: DbOrTrx, pool: pg.Pool | undefined, key: string, build: () => Compilable<R>, values: Record<string, unknown>): Promise<R[]> {
    let template = this.templates.get(key);
    if (!template) {
      const compiled = build().compile();
      const name = `tpl_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 16)}`;
      template = { sql: compiled.sql, parameters: compiled.parameters, name };
      if (this.templates.size >= this.max) this.templates.delete(this.templates.keys().next().value!);
      this.templates.set(key, template);
    }
    const parameters = template.parameters.map((p) => {
      if (!(p instanceof Slot)) return p;
      if (!(p.name in values)) throw new Error(`query template ${key}: no value for slot ${p.name}`);
      return values[p.name];
    });
    if (pool && !db.isTransaction) {
      const result = await pool.query({ name: template.name, text: template.sql, values: parameters });
      return result.rows as R[];
    }
    // In a transaction (or without the pool): on the transaction's own connection, still as the
    // named prepared statement on PostgreSQL (src/db/prepared.ts).
    const result = await db.executeQuery<R>(CompiledQuery.raw(asPrepared(template.name, template.sql), parameters));
    return [...result.rows];
  }
}
