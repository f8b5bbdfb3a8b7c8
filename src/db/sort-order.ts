/**
 * The ORDER BY of a list the API sorts (docs/api.md "Sorting lists"): the keys of the chosen `sort`
 * in the list's `order`, then the row id in the same direction, so pages never overlap or skip rows.
 * Each repository keeps its own whitelist (a map from the API's sort field to its keys) and passes
 * the chosen entry here.
 */
import { sql, type Expression, type RawBuilder } from 'kysely';

/** The direction of a sorted list (the `order` query parameter). */
export type SortDirection = 'asc' | 'desc';

/**
 * One key of a sort: a column reference ('u.name') or an SQL expression, or an object adding
 * `nulls: 'last'` (empty values last in either direction: a nullable column), `nulls: 'first'`
 * (empty values first in either direction), or `fixed: 'asc'` (always ascending, whatever the
 * list's direction: a grouping such as "drafts without a number last").
 */
export type SortKey = string | Expression<unknown> | { key: string | Expression<unknown>; nulls?: 'first' | 'last'; fixed?: 'asc' };

/**
 * The ORDER BY list `keys` in `order`, then `id` in `order`, for `.orderBy(...)` or inside an
 * aggregate's `order by ${...}`.
 * @param keys one key or several (the first decides, the next break its ties)
 * @param order asc or desc
 * @param id the row id's column ('u.id'), the last key
 * @returns e.g. `"u"."last_login_at" desc nulls last, "u"."id" desc`
 */
export function sortOrderSql(keys: SortKey | readonly SortKey[], order: SortDirection, id: string): RawBuilder<unknown> {
  const dir = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const list = (Array.isArray(keys) ? keys : [keys]) as readonly SortKey[];
  const parts = list.map((k) => {
    const o = typeof k === 'string' || 'toOperationNode' in k ? { key: k } : k;
    const expr = typeof o.key === 'string' ? sql.ref(o.key) : o.key;
    const nulls = 'nulls' in o && o.nulls ? sql.raw(` nulls ${o.nulls}`) : sql.raw('');
    return sql`${expr} ${'fixed' in o && o.fixed ? sql.raw(o.fixed) : dir}${nulls}`;
  });
  return sql.join([...parts, sql`${sql.ref(id)} ${dir}`]);
}
