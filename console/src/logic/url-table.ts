/**
 * The hooks that keep a table's sort and page in the URL's query string (docs/console.md "Sorting
 * and paging"), on react-router's useSearchParams and the pure functions of sort.ts: each change
 * is a new history entry, so a sorted or paged view can be bookmarked, reloaded and restored with
 * the back and forward buttons.
 */
import { useSearchParams } from 'react-router';
import { parseSort, parseTableState, withTableState, type SortDescriptor } from './sort.ts';

/**
 * The page's sort from the URL (one of `keys`, else `fallback`) and `setSort` to change it (kept
 * in the URL with the page's other parameters).
 */
export function useUrlSort(keys: readonly string[], fallback: SortDescriptor | null = null) {
  const [search, setSearch] = useSearchParams();
  const sort = parseSort(search, keys) ?? fallback;
  const setSort = (next: SortDescriptor) =>
    setSearch((prev) => {
      const s = new URLSearchParams(prev);
      s.set('sort', String(next.column));
      s.set('order', next.direction === 'ascending' ? 'asc' : 'desc');
      return s;
    });
  return { sort, setSort };
}

/**
 * A table's sort and page kept in the URL (`?sort=name&order=asc&page=2`, or under `prefix`:
 * `?rules-sort=branch&rules-page=2`), as DataTable's props: spread the answer onto a DataTable
 * (`<DataTable {...useUrlTable(keys)} ...>`), which then sorts and pages its rows in the browser.
 * Each change is a new history entry, so back and forward restore the table.
 */
export function useUrlTable(keys: readonly string[], prefix = '', fallback: SortDescriptor | null = null) {
  const [search, setSearch] = useSearchParams();
  const { sort, page } = parseTableState(search, keys, prefix, fallback);
  return {
    sort,
    onSortChange: (next: SortDescriptor) => setSearch((prev) => withTableState(prev, { sort: next }, prefix)),
    page,
    onPageChange: (next: number) => setSearch((prev) => withTableState(prev, { page: next }, prefix)),
  };
}
