/** Schemas of GET /api/search (docs/insight.md "Search"). */
import { Type, type Static } from 'typebox';
import { Uuid } from '../../../http/schema-primitives.ts';

export const SEARCH_TYPES = ['job', 'tenant', 'address', 'building', 'landlord', 'contractor', 'user', 'invoice'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, description: 'words, a reference, a postcode (with or without its space)' }),
    types: Type.Optional(Type.String({
      maxLength: 100,
      pattern: `^(${SEARCH_TYPES.join('|')})(,(${SEARCH_TYPES.join('|')}))*$`,
      description: `comma-separated subset of ${SEARCH_TYPES.join(', ')} (default: all the caller may open)`,
    })),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
    offset: Type.Integer({ minimum: 0, maximum: 1000, default: 0 }),
  },
  { additionalProperties: false },
);
export type SearchQueryInput = Static<typeof SearchQuery>;

export const SearchHit = Type.Object({
  type: Type.Union([
    Type.Literal('job'), Type.Literal('tenant'), Type.Literal('address'), Type.Literal('building'), Type.Literal('landlord'),
    Type.Literal('contractor'), Type.Literal('user'), Type.Literal('invoice'),
  ]),
  uuid: Uuid(),
  title: Type.String(),
  subtitle: Type.Union([Type.String(), Type.Null()]),
  snippet: Type.String({
    description: 'where the words matched: the first searched field holding a match, as "Field: text" (e.g. "Postcode: <mark>LS6</mark> <mark>2AB</mark>"), ' +
      'the text HTML-escaped, at most 140 characters around the match, the matching words in <mark>…</mark> (docs/insight.md "Search", "Snippets")',
  }),
  score: Type.Number({ description: 'rank, larger is better (2: exact reference or invoice number; 1.5: exact postcode or contractor reference; ≤ 1.2 otherwise)' }),
  url: Type.String({ description: 'the API path of the record' }),
});
export type SearchHitDto = Static<typeof SearchHit>;
