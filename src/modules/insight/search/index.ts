/** The search module's public door (docs/insight.md "Search"). */
export { searchRoutes } from './search.routes.ts';
export { search, SEARCH_PROVIDERS, type SearchProvider } from './search.service.ts';
