/**
 * Column sorting of the console's tables (docs/console.md "Sorting and paging"): the sorted column and its
 * direction kept in the URL's query string (`?sort=name&order=asc`), so a sorted view can be
 * bookmarked and restored with the back button, in the shape of react-aria's SortDescriptor.
 * Tables whose rows are all loaded (the settings pages' lists) sort them here (`sortRows`); the
 * lists the API pages send the sort with each page (`apiSortQuery`). The hooks that keep them in
 * the URL are in url-table.ts.
 */

/**
 * A sorted column and its direction, the shape of react-aria's SortDescriptor (written out here so
 * this file needs no React: the tests of test/console load it in Node). `K` narrows the column to
 * a table's sort keys (an API list's `sort` values).
 */
export interface SortDescriptor<K extends string | number = string | number> {
  column: K;
  direction: 'ascending' | 'descending';
}

/**
 * The URL sort keys of old, each with the key that replaced it when the table began to sort through
 * the API and took the API's field names (users, contractors, tenants, invoices, addresses,
 * compliance), so an old bookmark such as `/users?sort=last_sign_in` keeps its sort. A key is
 * read as its replacement only where the replacement is one of the table's keys (`address` is the
 * compliance table's own key, and the addresses table's old one for `line1`).
 */
export const SORT_KEY_ALIASES: Readonly<Record<string, string>> = {
  // users (branch also the addresses table's)
  branch: 'branch_name',
  last_sign_in: 'last_login_at',
  // contractors
  company: 'company_name',
  contact: 'contact_name',
  // tenants
  addresses: 'address_count',
  // invoices
  number: 'invoice_number',
  contractor: 'contractor_name',
  job: 'job_reference',
  issued: 'issue_date',
  due: 'due_date',
  gross: 'gross_pence',
  owed: 'outstanding_pence',
  // addresses
  address: 'line1',
  hmo: 'is_hmo',
  // compliance
  property: 'address',
  item: 'type_name',
  expires: 'expires_on',
  issued_by: 'contractor_name',
};

/** The table's sort key for the URL's `column`: itself when one of `keys`, else its replacement (SORT_KEY_ALIASES) when that is, else null. */
export function sortKeyOf<K extends string>(column: string | null, keys: readonly K[]): K | null {
  if (column === null) return null;
  const own = keys.find((k) => k === column);
  if (own !== undefined) return own;
  const renamed = Object.hasOwn(SORT_KEY_ALIASES, column) ? SORT_KEY_ALIASES[column] : undefined;
  return keys.find((k) => renamed !== undefined && k === renamed) ?? null;
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
      const c = compareSortValues(a.v!, b.v!);
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.row);
}

/** Rows a page of a table that pages in the browser (the settings pages' lists of up to 200). */
export const TABLE_PAGE_SIZE = 25;

/** The URL parameters of one table: `sort`, `order`, `page`, each after `prefix` ("rules-sort") when a page has several tables. */
export function tableParams(prefix = ''): { sort: string; order: string; page: string } {
  const p = prefix ? `${prefix}-` : '';
  return { sort: `${p}sort`, order: `${p}order`, page: `${p}page` };
}

/** The page number (from 1) in `search`'s `param`; 1 when absent or not a whole number of at least 1. */
export function parsePage(search: URLSearchParams, param = 'page'): number {
  const n = Number(search.get(param));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * The table state in `search` under `prefix` (tableParams): the sort (one of `keys`, an old key
 * read as its replacement (sortKeyOf), else `fallback`) and the page (from 1).
 */
export function parseTableState<K extends string>(
  search: URLSearchParams,
  keys: readonly K[],
  prefix = '',
  fallback: SortDescriptor<K> | null = null,
): { sort: SortDescriptor<K> | null; page: number } {
  const n = tableParams(prefix);
  const column = sortKeyOf(search.get(n.sort), keys);
  const sort = column !== null ? { column, direction: search.get(n.order) === 'asc' ? ('ascending' as const) : ('descending' as const) } : fallback;
  return { sort, page: parsePage(search, n.page) };
}

/**
 * `search` with the table under `prefix` changed: a new sort sets `sort` and `order` and goes back
 * to page 1 (the first rows of the new order); a page sets `page` (removed for page 1). Other
 * parameters (filters, other tables) are kept. A new URLSearchParams.
 */
export function withTableState(search: URLSearchParams, change: { sort?: SortDescriptor; page?: number }, prefix = ''): URLSearchParams {
  const n = tableParams(prefix);
  const s = new URLSearchParams(search);
  if (change.sort) {
    s.set(n.sort, String(change.sort.column));
    s.set(n.order, change.sort.direction === 'ascending' ? 'asc' : 'desc');
    s.delete(n.page);
  }
  if (change.page !== undefined) {
    if (change.page > 1) s.set(n.page, String(Math.floor(change.page)));
    else s.delete(n.page);
  }
  return s;
}

/** Compares two sort values that both have one: text in English order (numbers within it by value), else by number. */
export function compareSortValues(a: NonNullable<SortValue>, b: NonNullable<SortValue>): number {
  return typeof a === 'string' || typeof b === 'string' ? collator.compare(String(a), String(b)) : Number(a) - Number(b);
}

/** A sort value with no value (null, undefined or '') as undefined, the form TanStack Table sorts last (`sortUndefined: 'last'`). */
export function sortableValue(v: SortValue): SortValue {
  return v === null || v === undefined || v === '' ? undefined : v;
}

/**
 * The `sort` and `order` query parameters of a list the API sorts (GET /api/users, /api/contractors,
 * /api/tenants, /api/invoices, /api/addresses, /api/admin/branches, /api/compliance; docs/api.md) for a table's sort: `{ sort: column, order: 'asc' | 'desc' }`, or `{}`
 * for none (the API's own order); `sort` is typed as the sort's column (`K`, the list's sort values).
 */
export function apiSortQuery<K extends string>(sort: SortDescriptor<K> | null): { sort?: K; order?: 'asc' | 'desc' } {
  return sort ? { sort: sort.column, order: sort.direction === 'ascending' ? 'asc' : 'desc' } : {};
}
