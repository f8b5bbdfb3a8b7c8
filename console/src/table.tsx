/**
 * The console's tables (docs/console.md "Sorting and paging"): DataTable on TanStack Table, in a
 * module of its own so the pages without a table (the sign-in pages and the job board, the first
 * views) do not download the table library.
 */
import type { ReactNode } from 'react';
import { useTable, type RowData } from '@tanstack/react-table';
import { nextSort, TABLE_PAGE_SIZE, type SortDescriptor } from './logic/sort.ts';
import { tableOptionsOf, type SortableColumn } from './logic/table.ts';
import { Pager, PHONE_QUERY, useMediaQuery } from './ui.tsx';

/** One column of a DataTable: its header, its cell, and whether a phone's card shows it (`key`); sorting as SortableColumn (`K`: the sort keys). */
export interface Column<T, K extends string = string> extends SortableColumn<T, K> {
  cell: (row: T) => ReactNode;
  /** Shown on the card on a phone (the first column is the card's title and always shown). */
  key?: boolean;
  /** An action on the row (an "Edit" link): a cell in the table, a link under the fields on a card. */
  action?: boolean;
}

/** "Name, ascending" for the phone's sort menu. */
function sortOptionLabel(header: string, direction: SortDescriptor['direction']): string {
  return `${header}, ${direction}`;
}

/**
 * A table of rows on TanStack Table (`@tanstack/react-table` 9, headless: it orders and pages the
 * rows, the markup is ours); on a phone (PHONE_QUERY) a list of cards instead, each titled by the
 * first column and listing the columns marked `key` as label and value, so nothing hides behind a
 * sideways scroll, with the row's actions under them. With `sort` and `onSortChange`, the headers
 * of the columns with a `sortKey` are buttons (a click sorts by the column ascending, a second
 * click the other way) and the sorted column's header carries aria-sort (the WAI-ARIA sortable
 * table pattern); on a phone a "Sort by" menu does the same. Columns with a `sortValue` order the
 * given rows here; without one the API sorted them (TanStack's manualSorting). With
 * `onPageChange`, the sorted rows are shown `pageSize` (25) at a time, `page` (from 1, past the
 * end shows the last) with a Pager under them when there is more than one page. `empty` (what to
 * do next) replaces the table when there are no rows. Sort and page usually come from the URL
 * (`useUrlTable`, logic/sort.ts; docs/console.md "Sorting and paging").
 */
export function DataTable<T extends RowData>({
  label,
  columns,
  rows,
  rowKey,
  sort = null,
  onSortChange,
  page = 1,
  onPageChange,
  pageSize = TABLE_PAGE_SIZE,
  empty,
}: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (r: T) => string;
  sort?: SortDescriptor | null;
  onSortChange?: (sort: SortDescriptor) => void;
  /** The page shown (from 1) when the table pages its rows in the browser (`onPageChange` given). */
  page?: number;
  onPageChange?: (page: number) => void;
  pageSize?: number;
  /** Shown instead of the table when `rows` is empty: what the reader can do about it. */
  empty?: ReactNode;
}) {
  const phone = useMediaQuery(PHONE_QUERY);
  const sortable = onSortChange ? columns.filter((c) => c.sortKey) : [];
  const sorted = sortable.find((c) => c.sortKey === sort?.column);
  const active = sort && sorted ? sort : null;
  const pages = onPageChange ? Math.max(1, Math.ceil(rows.length / pageSize)) : 1;
  const shownPage = Math.min(Math.max(1, page), pages);
  const table = useTable(
    tableOptionsOf({ columns, rows, rowKey, sort: active, sortable: Boolean(onSortChange), page: shownPage, pageSize: onPageChange ? pageSize : null }),
  );
  const shown = table.getRowModel().rows;
  const pager = onPageChange && pages > 1 ? <Pager page={shownPage} pages={pages} onPage={onPageChange} /> : null;
  if (rows.length === 0 && empty) {
    return (
      <div className="empty-state" role="note">
        {empty}
      </div>
    );
  }
  if (phone) {
    const [first, ...rest] = columns;
    return (
      <>
        {sortable.length > 0 && onSortChange ? (
          <label className="sort-select">
            Sort {label} by
            <select
              value={active ? `${sorted!.sortKey}:${active.direction}` : ''}
              onChange={(e) => {
                const [column, direction] = e.target.value.split(':');
                if (column && (direction === 'ascending' || direction === 'descending')) onSortChange({ column, direction });
              }}
            >
              {active ? null : <option value="">As listed</option>}
              {sortable.flatMap((c) =>
                (['ascending', 'descending'] as const).map((d) => (
                  <option key={`${c.sortKey}:${d}`} value={`${c.sortKey}:${d}`}>
                    {sortOptionLabel(c.header, d)}
                  </option>
                )),
              )}
            </select>
          </label>
        ) : null}
        <ul className="cards" aria-label={label}>
          {shown.map((row) => {
            const r = row.original;
            return (
              <li key={row.id} className="card">
                <p className="card-title">{first ? first.cell(r) : null}</p>
                <dl className="card-fields">
                  {rest
                    .filter((c) => c.key && !c.action)
                    .map((c) => (
                      <div key={c.header}>
                        <dt>{c.header}</dt>
                        <dd>{c.cell(r)}</dd>
                      </div>
                    ))}
                </dl>
                {rest
                  .filter((c) => c.action)
                  .map((c) => (
                    <p key={c.header} className="card-action">
                      {c.cell(r)}
                    </p>
                  ))}
              </li>
            );
          })}
        </ul>
        {pager}
      </>
    );
  }
  return (
    <>
      <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
        <table>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((h) => {
                  const c = columns[h.index]!;
                  const direction = h.column.getIsSorted();
                  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined;
                  return (
                    <th key={h.id} scope="col" aria-sort={ariaSort}>
                      {h.column.getCanSort() && onSortChange ? (
                        <button type="button" className="sort-button" onClick={() => onSortChange(nextSort(active, c.sortKey!))}>
                          {c.header}
                          <span className={ariaSort ? 'sort-arrow sort-active' : 'sort-arrow'} aria-hidden="true">
                            {ariaSort ? (ariaSort === 'ascending' ? '▲' : '▼') : '↕'}
                          </span>
                        </button>
                      ) : (
                        c.header
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.id}>
                {row.getAllCells().map((cell, i) => (
                  <td key={cell.id}>{columns[i]!.cell(row.original)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pager}
    </>
  );
}
