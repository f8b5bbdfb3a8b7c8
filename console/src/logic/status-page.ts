/**
 * A list page filtered by one status, with the status and the page in the URL's query string
 * (`?status=overdue&page=2`), so the view can be bookmarked and restored with the back button
 * (docs/console.md). Used by the invoices and compliance pages.
 */
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's status (one of `statuses`' keys, else '') and page number (1 up), `go` to change
 * either (the page resets to 1 unless given; the URL's other parameters, such as a column sort or
 * another table's page, are kept), and `onFilter` for the filter form's submit (reads its `status` field).
 * The status is typed as the keys of `statuses` (`S`, the list's `status` values).
 */
export function useStatusPage<S extends string>(statuses: Record<S, string>) {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('status') ?? '';
  const status: S | '' = isStatus(statuses, raw) ? raw : '';
  const page = Math.max(1, Number(search.get('page')) || 1);
  const go = (next: { status?: string; page?: number }) => {
    const s = new URLSearchParams(search);
    const st = next.status ?? status;
    if (st) s.set('status', st);
    else s.delete('status');
    if ((next.page ?? 1) > 1) s.set('page', String(next.page));
    else s.delete('page');
    setSearch(s);
  };
  const onFilter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    go({ status: String(new FormData(e.currentTarget).get('status') ?? '') });
  };
  return { status, page, go, onFilter };
}

/** True when `value` is one of `statuses`' keys. */
function isStatus<S extends string>(statuses: Record<S, string>, value: string): value is S {
  return Object.hasOwn(statuses, value);
}
