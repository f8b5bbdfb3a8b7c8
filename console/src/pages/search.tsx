/**
 * Global search (GET /api/search, docs/insight.md): the results page `/search?q=...&page=2` with
 * each hit's type, title, subtitle and highlighted snippet, linked to its console page where there
 * is one (logic/search.ts). Loaded with its route; the header's search box is header-search.tsx.
 */
import { Link, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { consolePathOf, SEARCH_TYPES, snippetParts, type SearchType } from '../logic/search.ts';
import { useSession } from '../session.tsx';
import { Pager, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';

/** The search results page. */
export function SearchPage() {
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const q = (search.get('q') ?? '').trim();
  const p = Math.max(1, Number(search.get('page')) || 1);
  const hits = useLoad(async () => {
    if (!q) return { data: [], count: 0 };
    const { data } = await api.GET('/api/search', { params: { query: { q, limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE } } });
    return data!;
  }, [q, p]);
  const pages = pageCount(hits.data?.count ?? 0);
  const go = (page: number) => setSearch(new URLSearchParams({ q, ...(page > 1 ? { page: String(page) } : {}) }));
  return (
    <>
      <PageTitle>{q ? `Search: ${q}` : 'Search'}</PageTitle>
      {!q ? <p>Type words, a reference, a postcode or an invoice number in the search box at the top.</p> : null}
      <ProblemMessage problem={hits.problem} onRetry={hits.reload} />
      {q ? (
        <p className="count" aria-live="polite">
          {hits.loading ? 'Searching…' : `${hits.data?.count ?? 0} result${hits.data?.count === 1 ? '' : 's'}`}
        </p>
      ) : null}
      <ol className="search-hits">
        {(hits.data?.data ?? []).map((h) => {
          const to = consolePathOf(h, session.permissions);
          return (
            <li key={`${h.type}-${h.uuid}`} className="job-card">
              <div className="job-card-head">
                {to ? (
                  <Link to={to} className="job-link">
                    {h.title}
                  </Link>
                ) : (
                  <strong>{h.title}</strong>
                )}
                <span className="badge">{SEARCH_TYPES[h.type as SearchType] ?? h.type}</span>
              </div>
              {h.subtitle ? <p className="meta">{h.subtitle}</p> : null}
              <p className="snippet">
                {snippetParts(h.snippet).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
              </p>
            </li>
          );
        })}
      </ol>
      {q && (hits.data?.count ?? 0) > PAGE_SIZE ? (
        <Pager page={p} pages={pages} onPage={go} />
      ) : null}
    </>
  );
}
