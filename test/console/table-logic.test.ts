/**
 * The console tables' pure logic (docs/console.md "Sorting and paging"): a table's sort and page
 * read from and written to the URL (under a prefix when a page has several tables), and the rows
 * TanStack Table (the library DataTable is built on) gives for a sort and a page: English order
 * with numbers by value, empty values last either way, equal rows in their given order, pages of 25.
 */
import { constructTable } from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import { describe, expect, it } from 'vitest';
import {
  compareSortValues,
  nextSort,
  parsePage,
  parseTableState,
  sortableValue,
  sortKeyOf,
  sortRows,
  TABLE_PAGE_SIZE,
  tableParams,
  withTableState,
} from '../../console/src/logic/sort.ts';
import { tableFeatureSet, tableOptionsOf, type SortableColumn } from '../../console/src/logic/table.ts';

type Rule = { id: string; branch: string; priority: number | null };

const columns: SortableColumn<Rule>[] = [
  { header: 'Branch', sortKey: 'branch', sortValue: (r) => r.branch },
  { header: 'Priority', sortKey: 'priority', sortValue: (r) => r.priority },
  { header: 'Server-sorted', sortKey: 'created' },
  { header: 'Edit' },
];

/** The row ids TanStack Table shows for these options (the real library, without React). */
function shown(rows: Rule[], o: { sort: Parameters<typeof tableOptionsOf>[0]['sort']; page?: number; pageSize?: number | null }): string[] {
  const options = tableOptionsOf({ columns, rows, rowKey: (r) => r.id, sortable: true, page: o.page ?? 1, pageSize: o.pageSize ?? null, sort: o.sort });
  // Outside React the table is given its store's bindings (what useTable adds itself).
  const features = { ...tableFeatureSet, coreReactivityFeature: storeReactivityBindings() } as typeof tableFeatureSet;
  const table = constructTable({ ...options, features });
  return table.getRowModel().rows.map((r) => r.id);
}

describe('console tables: sort and page in the URL', () => {
  it('names the parameters, under a prefix when a page has several tables', () => {
    expect(tableParams()).toEqual({ sort: 'sort', order: 'order', page: 'page' });
    expect(tableParams('schedules')).toEqual({ sort: 'schedules-sort', order: 'schedules-order', page: 'schedules-page' });
  });

  it('reads the sort (a known column only; descending unless order=asc) and the page (a whole number from 1)', () => {
    const keys = ['branch', 'priority'];
    expect(parseTableState(new URLSearchParams('sort=branch&order=asc&page=3'), keys)).toEqual({ sort: { column: 'branch', direction: 'ascending' }, page: 3 });
    expect(parseTableState(new URLSearchParams('sort=branch'), keys)).toEqual({ sort: { column: 'branch', direction: 'descending' }, page: 1 });
    expect(parseTableState(new URLSearchParams('sort=drop+table&page=-2'), keys)).toEqual({ sort: null, page: 1 });
    expect(parseTableState(new URLSearchParams('sort=branch&page=2'), keys, 'rules')).toEqual({ sort: null, page: 1 });
    expect(parseTableState(new URLSearchParams('rules-sort=priority&rules-order=asc&rules-page=2'), keys, 'rules')).toEqual({
      sort: { column: 'priority', direction: 'ascending' },
      page: 2,
    });
    const fallback = { column: 'priority', direction: 'descending' } as const;
    expect(parseTableState(new URLSearchParams(''), keys, '', fallback).sort).toEqual(fallback);
    for (const bad of ['page=abc', 'page=1.5', 'page=0', 'page=', 'page=1e400']) expect(parsePage(new URLSearchParams(bad)), bad).toBe(1);
    expect(parsePage(new URLSearchParams('page=12'))).toBe(12);
  });

  it('reads the sort keys of old links as the API field names that replaced them, only where the table has that field', () => {
    const users = ['name', 'email', 'role', 'branch_name', 'status', 'last_login_at'];
    expect(parseTableState(new URLSearchParams('sort=last_sign_in&order=asc'), users).sort).toEqual({ column: 'last_login_at', direction: 'ascending' });
    expect(parseTableState(new URLSearchParams('sort=branch'), users).sort).toEqual({ column: 'branch_name', direction: 'descending' });
    expect(sortKeyOf('company', ['company_name', 'contact_name', 'active'])).toBe('company_name');
    expect(sortKeyOf('addresses', ['name', 'email', 'address_count'])).toBe('address_count');
    expect(sortKeyOf('owed', ['invoice_number', 'outstanding_pence'])).toBe('outstanding_pence');
    expect(sortKeyOf('hmo', ['line1', 'town', 'postcode', 'branch_name', 'is_hmo'])).toBe('is_hmo');
    expect(sortKeyOf('expires', ['address', 'type_name', 'status', 'expires_on', 'contractor_name'])).toBe('expires_on');
    // `address` is the compliance table's own key, and the addresses table's old one for line1.
    expect(sortKeyOf('address', ['address', 'type_name'])).toBe('address');
    expect(sortKeyOf('address', ['line1', 'town'])).toBe('line1');
    // An old key whose replacement the table lacks, an unknown key, and an inherited property name: no sort.
    expect(sortKeyOf('last_sign_in', ['name', 'email'])).toBeNull();
    expect(sortKeyOf('toString', ['name'])).toBeNull();
    expect(sortKeyOf(null, ['name'])).toBeNull();
  });

  it('writes a change, keeping the other parameters; a new sort goes back to page 1, page 1 leaves no parameter', () => {
    const start = new URLSearchParams('status=overdue&page=3&types-page=2');
    const sorted = withTableState(start, { sort: { column: 'due', direction: 'ascending' } });
    expect(sorted.toString()).toBe('status=overdue&types-page=2&sort=due&order=asc');
    expect(start.toString()).toBe('status=overdue&page=3&types-page=2');
    expect(withTableState(sorted, { page: 2 }).toString()).toBe('status=overdue&types-page=2&sort=due&order=asc&page=2');
    expect(withTableState(start, { page: 1 }).toString()).toBe('status=overdue&types-page=2');
    expect(withTableState(start, { page: 1 }, 'types').toString()).toBe('status=overdue&page=3');
    expect(withTableState(new URLSearchParams(''), { sort: { column: 'title', direction: 'descending' } }, 'schedules').toString()).toBe(
      'schedules-sort=title&schedules-order=desc',
    );
    // What a header click asks for: ascending first, then the other way.
    expect(nextSort(null, 'branch')).toEqual({ column: 'branch', direction: 'ascending' });
    expect(nextSort({ column: 'branch', direction: 'ascending' }, 'branch')).toEqual({ column: 'branch', direction: 'descending' });
    expect(nextSort({ column: 'branch', direction: 'descending' }, 'priority')).toEqual({ column: 'priority', direction: 'ascending' });
  });
});

describe('console tables: the order and pages TanStack Table gives', () => {
  const rows: Rule[] = [
    { id: 'a', branch: 'leeds 10', priority: 2 },
    { id: 'b', branch: 'Leeds 9', priority: null },
    { id: 'c', branch: 'Bradford', priority: 1 },
    { id: 'd', branch: '', priority: 2 },
    { id: 'e', branch: 'York', priority: 4 },
  ];

  it('compares text in English order (case aside, numbers by value) and numbers by value; empty is undefined', () => {
    expect(compareSortValues('Leeds 9', 'leeds 10')).toBeLessThan(0);
    expect(compareSortValues('apple', 'Apple')).toBe(0);
    expect(compareSortValues(2, 10)).toBeLessThan(0);
    expect([null, undefined, ''].map(sortableValue)).toEqual([undefined, undefined, undefined]);
    expect([0, false, 'x'].map(sortableValue)).toEqual([0, false, 'x']);
  });

  it('sorts by a column with a value here, empty values last either way, ties in the given order', () => {
    expect(shown(rows, { sort: null })).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(shown(rows, { sort: { column: 'branch', direction: 'ascending' } })).toEqual(['c', 'b', 'a', 'e', 'd']);
    expect(shown(rows, { sort: { column: 'branch', direction: 'descending' } })).toEqual(['e', 'a', 'b', 'c', 'd']);
    expect(shown(rows, { sort: { column: 'priority', direction: 'ascending' } })).toEqual(['c', 'a', 'd', 'e', 'b']);
    expect(shown(rows, { sort: { column: 'priority', direction: 'descending' } })).toEqual(['e', 'a', 'd', 'c', 'b']);
    // The same order as sortRows, the console's own sort before the library.
    for (const direction of ['ascending', 'descending'] as const)
      expect(shown(rows, { sort: { column: 'priority', direction } })).toEqual(sortRows(rows, (r) => r.priority, direction).map((r) => r.id));
  });

  it('leaves the order alone for a column the API sorts, and for an unknown column', () => {
    expect(shown(rows, { sort: { column: 'created', direction: 'ascending' } })).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(shown(rows, { sort: { column: 'nope', direction: 'descending' } })).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('pages the sorted rows 25 at a time', () => {
    const many: Rule[] = Array.from({ length: 60 }, (_, i) => ({ id: `r${i}`, branch: `Branch ${i}`, priority: i % 4 }));
    const byBranchDesc = { column: 'branch', direction: 'descending' } as const;
    const first = shown(many, { sort: byBranchDesc, page: 1, pageSize: TABLE_PAGE_SIZE });
    expect(first).toHaveLength(25);
    expect(first.slice(0, 3)).toEqual(['r59', 'r58', 'r57']);
    expect(shown(many, { sort: byBranchDesc, page: 3, pageSize: TABLE_PAGE_SIZE })).toEqual(['r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
    // Without a page size (the API paged them) every row is shown.
    expect(shown(many, { sort: null })).toHaveLength(60);
  });
});
