/** Pagination query parameters of every list endpoint (spec 2.2, 8). */
import { Type, type Static } from 'typebox';
import type { SortDirection } from '../db/sort-order.ts';

export const Pagination = {
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size (1 to 200)' }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'rows to skip (0 to 1,000,000)' }),
};

export const PaginationQuery = Type.Object(Pagination, { additionalProperties: false });
export type PaginationQuery = Static<typeof PaginationQuery>;


/**
 * The `sort` and `order` query parameters of a list the API sorts (docs/api.md "Sorting lists",
 * in the style of GET /api/jobs/manage): `sort` one of `fields` (default `defaultSort`), `order`
 * asc or desc (default `defaultOrder`); the defaults are the list's order without them. Another
 * value is a 400 (VALIDATION_ERROR) at the edge. The repository adds the row id as the last key,
 * in the same direction, so pages never overlap or skip rows.
 * @param fields the whitelist, each named after the response field it orders by
 */
export function Sorting<F extends string>(fields: readonly F[], defaultSort: F, defaultOrder: SortOrder) {
  return {
    sort: Type.Optional(Type.Union(fields.map((f) => Type.Literal(f)), { default: defaultSort, description: `field to sort by (default ${defaultSort})` })),
    order: OrderParam(defaultOrder),
  };
}

/**
 * The `order` query parameter alone (asc or desc, default `defaultOrder`), for a list whose sort
 * key is fixed (GET /api/sla/breaches orders by due_at); Sorting's own `order`. Another value is a
 * 400 (VALIDATION_ERROR) at the edge.
 * @param what what the list is ordered by, put before the description ("by due_at")
 */
export function OrderParam(defaultOrder: SortOrder, what?: string) {
  const description = `${what ? `${what}: ` : ''}asc or desc (default ${defaultOrder})`;
  return Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: defaultOrder, description }));
}

/** The direction of a sorted list (the repositories' own type, src/db/sort-order.ts). */
export type SortOrder = SortDirection;
