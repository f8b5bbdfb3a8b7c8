/**
 * Column sorting of the console's tables (docs/console.md "Sorting"): the sorted column and its
 * direction kept in the URL's query string (`?sort=name&order=asc`), so a sorted view can be
 * bookmarked and restored with the back button, in the shape of react-aria's SortDescriptor.
 * Lists whose API takes no sort parameter sort the rows of the loaded page here (`sortRows`).
 */
import type { SortDescriptor } from 'react-aria-components';
import { useSearchParams } from 'react-router';

export type { SortDescriptor };

/** The sort in `search` (`sort` one of `keys`, `order` asc or desc; desc when absent), else null. */
export function parseSort(search: URLSearchParams, keys: readonly string[]): SortDescriptor | null {
  const column = search.get('sort');
  if (column === null || !keys.includes(column)) return null;
  return { column, direction: search.get('order') === 'asc' ? 'ascending' : 'descending' };
}

/** Copies `sort` and `order` of `from` into `to` (a list page's own links rebuild their query). */
export function keepSort(from: URLSearchParams, to: URLSearchParams): URLSearchParams {
  for (const k of ['sort', 'order']) {
    const v = from.get(k);
    if (v !== null) to.set(k, v);
  }
  return to;
}

/** The direction a click on a column header gives: the other one when it is the sorted column, else ascending. */
export function nextSort(current: SortDescriptor | null, column: string): SortDescriptor {
  if (current?.column === column) return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: 'ascending' };
}

const collator = new Intl.Collator('en-GB', { numeric: true, sensitivity: 'base' });

/** What a column sorts by: text (compared in English order, numbers within it by value), a number, or nothing (last). */
export type SortValue = string | number | boolean | null | undefined;

/**
 * The rows ordered by `value` in `direction` (a new array; equal rows keep their order; rows
 * without a value last either way).
 */
export function sortRows<T>(rows: readonly T[], value: (row: T) => SortValue, direction: SortDescriptor['direction']): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      const an = a.v === null || a.v === undefined || a.v === '';
      const bn = b.v === null || b.v === undefined || b.v === '';
      if (an || bn) return an === bn ? a.i - b.i : an ? 1 : -1;
      const c = typeof a.v === 'string' || typeof b.v === 'string' ? collator.compare(String(a.v), String(b.v)) : Number(a.v) - Number(b.v);
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.row);
}

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
