/**
 * Named prepared statements: the one way a query runs as a statement PostgreSQL parses and plans
 * once per connection (and, with the pool's `plan_cache_mode=force_generic_plan`, plans once for
 * every value). docs/architecture.md, "Prepared statements".
 *
 * A hot query is defined once per shape with `preparedQuery(name, build)`: `build` receives
 * its parameters as `p('key')` (an `Expression<T>`, typed as the value it stands for) and returns a Kysely
 * query; it is compiled the first time a shape is used, and each run puts the request's values in
 * the parameters' positions and runs the text as the named statement, outside a transaction on a
 * pool connection, inside one on the transaction's connection (src/db/pg-driver.ts passes the
 * name to pg). On PGlite the same text runs unnamed.
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type Compilable, type Expression, type RawBuilder } from 'kysely';
import type { DbOrTrx } from './types.ts';

const NAMES = new WeakMap<CompiledQuery, string>();

/** The statement name a compiled query carries (set by a PreparedQuery run), or undefined. */
export function statementNameOf(query: CompiledQuery): string | undefined {
  return NAMES.get(query);
}

/** A parameter's place in a query: compiled as `$n`, its value given at each run. */
class Param {
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
}

/** A value in a query: the value itself, or a parameter expression standing for it. */
export type Value<T> = T | Expression<T>;

/**
 * The parameter expressions of `Values`: `p('key')` is the parameter named `key`, typed as the value
 * it stands for.
 */
export type Params<Values> = <K extends keyof Values & string>(key: K) => Expression<NonNullable<Values[K]>>;

/** A fresh set of parameter expressions for one build: the same key gives the same expression. */
function params<Values extends object>(): Params<Values> {
  const made = new Map<string, Expression<unknown>>();
  return <K extends keyof Values & string>(key: K) => {
    let expression = made.get(key);
    if (!expression) {
      expression = sql`${new Param(key)}`;
      made.set(key, expression);
    }
    return expression as Expression<NonNullable<Values[K]>>;
  };
}

/**
 * The parameters of `columns` as an insert's or update's values: `{ column: p('column'), ... }`, so a
 * prepared insert names each column once (`values(columnParams(p, JOB_COLUMNS))`).
 */
export function columnParams<Values extends object, K extends keyof Values & string>(p: Params<Values>, columns: readonly K[]): { [C in K]: Expression<NonNullable<Values[C]>> } {
  return Object.fromEntries(columns.map((c) => [c, p(c)])) as { [C in K]: Expression<NonNullable<Values[C]>> };
}

interface Compiled {
  name: string;
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A query defined once per shape and run as a named prepared statement.
 * @template Shape what decides the SQL text (which filters are set, the sort): same shape, same text
 * @template Values the run-time values, as parameters
 */
export class PreparedQuery<Shape, Values extends object, R> {
  readonly #name: string;
  readonly #build: (db: DbOrTrx, shape: Shape, p: Params<Values>) => Compilable<R> | RawBuilder<R>;
  readonly #compiled = new Map<string, Compiled>();
  readonly #max: number;

  /**
   * @param name a readable prefix of the statement names (letters, digits, underscore)
   * @param build the query for one shape, with `p('key')` wherever a value goes: a Kysely query, or
   *   a statement written with the `sql` tag
   * @param max shapes kept (the oldest dropped first)
   */
  constructor(name: string, build: (db: DbOrTrx, shape: Shape, p: Params<Values>) => Compilable<R> | RawBuilder<R>, max = 200) {
    this.#name = name;
    this.#build = build;
    this.#max = max;
  }

  /** The statement of a shape: name, SQL text and parameters in order (the snapshot files print it: src/db/sql/). */
  compile(db: DbOrTrx, shape: Shape): Compiled {
    const key = JSON.stringify(shape);
    let compiled = this.#compiled.get(key);
    if (!compiled) {
      const built = this.#build(db, shape, params<Values>());
      // A statement of the `sql` tag is compiled by the database it runs on; a query builder by itself.
      const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      const hash = createHash('sha1').update(query.sql).digest('hex').slice(0, 12);
      compiled = { name: `${this.#name}_${hash}`, sql: query.sql, parameters: query.parameters };
      if (this.#compiled.size >= this.#max) this.#compiled.delete(this.#compiled.keys().next().value!);
      this.#compiled.set(key, compiled);
    }
    return compiled;
  }

  /**
   * Runs the shape with `values` in its parameters.
   * @returns the rows
   * @throws Error when the shape uses a parameter `values` gives no value for
   */
  async run(db: DbOrTrx, shape: Shape, values: Values): Promise<R[]> {
    const result = await db.executeQuery<R>(this.statement(db, shape, values));
    return [...result.rows];
  }

  /**
   * The statement of the shape with `values`, not yet run, still named (for src/db/pipeline.ts).
   * @throws Error when the shape uses a parameter `values` gives no value for
   */
  statement(db: DbOrTrx, shape: Shape, values: Values): CompiledQuery<R> {
    const compiled = this.compile(db, shape);
    const parameters = compiled.parameters.map((p) => {
      if (!(p instanceof Param)) return p;
      const value = values[p.key as keyof Values];
      if (value === undefined) throw new Error(`${compiled.name}: no value for parameter ${p.key}`);
      return value;
    });
    const query = CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
    NAMES.set(query, compiled.name);
    return query;
  }
}
