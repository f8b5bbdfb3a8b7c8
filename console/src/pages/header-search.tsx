/**
 * The header's search box for staff (docs/insight.md, global search): submitting opens the results
 * page `/search?q=...` (search.tsx, loaded with its route). In the shell on every page, so it holds
 * nothing of the results page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

/** The search box in the header; submitting opens `/search?q=...`. */
export function HeaderSearch() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [q, setQ] = useState('');
  useEffect(() => setQ(search.get('q') ?? ''), [search]);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (q.trim()) navigate(`/search?q=${encodeURIComponent(q.trim())}`);
  };
  return (
    <form className="header-search" role="search" aria-label="Everything" onSubmit={onSubmit}>
      <label htmlFor="global-search">Search everything</label>
      <input id="global-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Job, tenant, postcode, invoice…" maxLength={200} />
      <button type="submit" className="btn btn-secondary">
        Go
      </button>
    </form>
  );
}
