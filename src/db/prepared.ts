/**
 * Named prepared statements on PostgreSQL from any query, in a transaction or not: a text marked
 * with `asPrepared` runs on the main pool's connection as the named statement, so the server parses
 * and plans it once per connection (and keeps a generic plan when it is no dearer than a custom
 * one) instead of on every run. Kysely sends only text and values; the pool's clients are patched
 * (`prepareMarkedQueries`) to turn a marked text into a named statement. On PGlite the mark is a
 * plain comment. docs/architecture.md, "Compiled and prepared queries".
 */
import type pg from 'pg';

const MARK = /\/\*prepared:([A-Za-z0-9_]{1,63})\*\/$/;

/**
 * Marks SQL text to run as the named prepared statement `name`.
 * @param name a statement name unique to this text (letters, digits, underscore; at most 63)
 * @param sql the statement's text
 * @returns the text with a trailing comment naming the statement
 */
export function asPrepared(name: string, sql: string): string {
  return `${sql} /*prepared:${name}*/`;
}

type Query = (...args: unknown[]) => unknown;

/**
 * Patches a pg client so that `query(text, values[, callback])` with a text marked by `asPrepared`
 * runs as `query({ name, text, values }[, callback])`; every other call is unchanged.
 */
export function prepareMarkedQueries(client: pg.ClientBase): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    // Most texts carry no mark: the cheap test first, the pattern only on a candidate.
    const name = typeof text === 'string' && text.endsWith('*/') ? MARK.exec(text)?.[1] : undefined;
    if (name === undefined) return query(...args);
    const config = { name, text, values: Array.isArray(values) ? values : [] };
    const done = typeof values === 'function' ? values : callback;
    return done === undefined ? query(config) : query(config, done);
  };
}
