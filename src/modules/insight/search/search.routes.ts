/** GET /api/search (docs/insight.md "Search"). */
import type { AppDeps } from '../../../app-deps.ts';
import { ListEnvelope, list, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { SearchHit, SearchQuery } from './search.schemas.ts';
import { search } from './search.service.ts';

/** Registers the search route. */
export function searchRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/search?q=&types=&limit=&offset=: ranked, typed hits the caller may open. */
    app.get('/api/search', {
      config: { permission: 'api.search.view' },
      schema: {
        tags: ['search'],
        summary: 'Global search',
        description:
          'Full-text (English stemming) and trigram (typos, postcodes with or without the space) search over jobs ' +
          '(reference, title, description, address), tenants (name, e-mail, the postcode they live at), addresses (postcode, ' +
          'flat, building name, lines), buildings (name, street, postcode), landlords (name, e-mail), contractors, users and invoices (number such as ' +
          'INV-000008 or CN-000001, contractor reference, job reference, contractor name, address). Each type is searched ' +
          'only when the caller holds the permission that opens it, and only within what it may open; a hit the caller ' +
          'cannot open is never returned nor counted. `count` is the number of visible matches; hits are ranked best first ' +
          '(jobs: the newest 2,000 matching jobs are ranked; when more match, `count` counts 2,000 of them and the answer ' +
          'carries X-Count-Capped: true) ' +
          'and carry a snippet saying where the words matched: "Field: text" of the first searched field holding a match, ' +
          'HTML-escaped, with <mark> around matching words. A q without letters or digits is 400.',
        querystring: SearchQuery,
        response: responses(ListEnvelope(SearchHit), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        const { hits, total, capped } = await search(deps, requireAuth(request), request.query);
        if (capped) void reply.header('x-count-capped', 'true');
        return list(hits, total, 'Search results retrieved');
      },
    });
  };
}
