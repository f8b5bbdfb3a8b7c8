/**
 * The hooks that keep a table's sort and page in the URL's query string (docs/console.md "Sorting
 * and paging"), on react-router's useSearchParams and the pure functions of sort.ts: each change
 * is a new history entry, so a sorted or paged view can be bookmarked, reloaded and restored with
 * the back and forward buttons.
 */
import { useSearchParams } from 'react-router';
import { parseTableState, withTableState, type SortDescriptor } from './sort.ts';

/**
 * A table's sort and page kept in the URL (`?sort=name&order=asc&page=2`, or under `prefix`:
 * `?rules-sort=branch&rules-page=2`), as DataTable's props: spread the answer onto a DataTable
 * (`<DataTable {...useUrlTable(keys)} ...>`), which then sorts and pages its rows in the browser.
 * Each change is a new history entry, so back and forward restore the table. The sort's column is
 * one of `keys` (typed `K`).
 */
export function useUrlTable<K extends string>(keys: readonly K[], prefix = '', fallback: SortDescriptor<K> | null = null) {
  const [search, setSearch] = useSearchParams();
  const { sort, page } = parseTableState(search, keys, prefix, fallback);
  return {
    sort,
    onSortChange: (next: SortDescriptor) => setSearch((prev) => withTableState(prev, { sort: next }, prefix)),
    page,
    onPageChange: (next: number) => setSearch((prev) => withTableState(prev, { page: next }, prefix)),
  };
}
