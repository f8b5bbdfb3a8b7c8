/** Pagination query parameters of every list endpoint (spec 2.2, 8). */
import { Type, type Static } from 'typebox';

export const Pagination = {
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size (1 to 200)' }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'rows to skip (0 to 1,000,000)' }),
};

export const PaginationQuery = Type.Object(Pagination, { additionalProperties: false });
export type PaginationQuery = Static<typeof PaginationQuery>;

