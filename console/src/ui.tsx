/**
 * Shared pieces of the console's pages: buttons, the problem message with its retry button, page
 * titles, paging, dates and money as people read them, the confirmation dialog, and the
 * data-loading hook (`useLoad`, on TanStack Query: query.ts). Nothing here imports
 * react-aria-components: this module is part of the shell every first visit downloads, and the
 * pieces built on react-aria (the labelled text field of field.tsx, the dialog of
 * confirm-dialog.tsx) load with the pages that show them (docs/console.md "How it is built and
 * served").
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ButtonHTMLAttributes, type FormEvent, type ReactNode } from 'react';
import { hashKey, keepPreviousData, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { describeProblem, type Problem } from './logic/errors.ts';

/** The <option>s of a select, one per entry of `labels` (value: label), in the object's order. */
export function Options({ labels }: { labels: Record<string | number, string> }) {
  return (
    <>
      {Object.entries(labels).map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/**
 * What a Button takes: a native button's attributes, with `onPress` for its click and `isDisabled`
 * for `disabled` (the names react-aria's Button gave them, which the pages keep), and `variant`.
 */
export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick'> & {
  onPress?: () => void;
  isDisabled?: boolean;
  variant?: 'primary' | 'secondary' | 'danger';
};

/**
 * A button; `variant` picks the look (primary, secondary, danger). A native `<button>` (type
 * "button" unless given), so the shell needs no press-handling library: the browser's own click,
 * keyboard and focus behaviour are what a button needs.
 */
export function Button({ variant = 'primary', className, type = 'button', onPress, isDisabled, ...rest }: ButtonProps) {
  return <button {...rest} type={type} disabled={isDisabled} onClick={onPress} className={`btn btn-${variant}${className ? ` ${className}` : ''}`} />;
}

/**
 * A form's submit button (`label`, disabled while `busy`) and, when `onCancel` is given (an edit
 * under way), a Cancel button beside it.
 */
export function SubmitRow({ label, busy, onCancel }: { label: string; busy: boolean; onCancel?: () => void }) {
  return (
    <div className="button-row">
      <Button type="submit" isDisabled={busy}>
        {label}
      </Button>
      {onCancel ? (
        <Button variant="secondary" onPress={onCancel}>
          Cancel
        </Button>
      ) : null}
    </div>
  );
}

/** The message of a failed action, announced to screen readers, with a retry button when retrying can help. */
export function ProblemMessage({ problem, onRetry }: { problem: Problem | null; onRetry?: () => void }) {
  if (!problem) return null;
  return (
    <div className="problem" role="alert">
      <p>{problem.message}</p>
      {problem.retry && onRetry ? (
        <Button variant="secondary" onPress={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/**
 * Previous/next paging of a list (page numbers from 1): "Page p of pages" between the two buttons,
 * each disabled at its end; `onPage` receives the page to show.
 */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <Button variant="secondary" isDisabled={page <= 1} onPress={() => onPage(page - 1)}>
        Previous page
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button variant="secondary" isDisabled={page >= pages} onPress={() => onPage(page + 1)}>
        Next page
      </Button>
    </nav>
  );
}

/** Sets the document title and renders the page heading (focused on navigation for screen readers). */
export function PageTitle({ children, actions }: { children: string; actions?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · Caretaker`;
    ref.current?.focus({ preventScroll: true });
  }, [children]);
  return (
    <div className="page-title">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}

/** Numbers the components loading by `useLoad(load, deps)` (their cache key). */
let instances = 0;

/** What `useLoad` gives a page. */
export interface Loaded<T> {
  /** The last data loaded (kept while reloading or while new inputs load), null before the first. */
  data: T | null;
  /** The failure of the last load (describeProblem), null once a load succeeds. */
  problem: Problem | null;
  /** True while loading: the first time, when the inputs change, and during `reload`. */
  loading: boolean;
  /**
   * True while `data` is the answer for the inputs before (shown until the new inputs' answer
   * arrives, so a list does not blank while its filter or page changes). A page showing one record
   * treats it as still loading: the record before is not the record asked for.
   */
  placeholder: boolean;
  /**
   * Loads again (every component showing the same key gets the new data); a read still on its way
   * is dropped first, as it may have left before the write the reload follows.
   */
  reload: () => void;
}

/**
 * Loads data with `load` through the console's TanStack Query client (query.ts): one request per
 * key however many components show it, the cache shared between pages, one retry when it helps.
 * Call it with a readable key naming everything `load` reads, `useLoad(['tenants', q, p], load)`
 * (shared by every component using that key), or with `load` and its `deps` as with useCallback,
 * `useLoad(load, [uuid])` (cached for this mounted component only, dropped when it unmounts).
 * Gives `{ data, problem, loading, reload }`.
 */
export function useLoad<T>(key: QueryKey, load: () => Promise<T>): Loaded<T>;
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T>;
export function useLoad<T>(first: QueryKey | (() => Promise<T>), second: (() => Promise<T>) | unknown[]): Loaded<T> {
  // Not useId(): it is the same for another page's component at the same place in the tree, and
  // the two would share (and show) each other's data.
  const [instance] = useState(() => ++instances);
  const named = typeof first !== 'function';
  const queryKey = named ? first : ['component', instance, ...(second as unknown[])];
  const load = (named ? second : first) as () => Promise<T>;
  const query = useQuery({
    queryKey,
    // TanStack refuses undefined as data; null stands for "nothing".
    queryFn: async () => (await load()) ?? null,
    // An answer prefetched for this page (prefetchLoad) is shown as it is, not asked for again.
    refetchOnMount: (q) => !prefetched.has(q.queryHash),
    // As before: what was shown stays while other inputs load.
    placeholderData: keepPreviousData,
    // A component's own data cannot be shown by another: dropped once it unmounts.
    ...(named ? {} : { gcTime: 0 }),
  });
  // Mounted (TanStack subscribed in its own effect, before this one): a later mount reads again.
  const hash = hashKey(queryKey);
  useEffect(() => void prefetched.delete(hash), [hash]);
  const { error, refetch } = query;
  const problem = useMemo(() => (error ? describeProblem(error, navigator.onLine) : null), [error]);
  // A reload mostly follows a write: a read of this key still on its way may have left before the
  // write, and TanStack's refetch would wait for it when it is the first (the key holds no data yet),
  // so it is dropped first (as refreshAfterWrite, query.ts).
  const client = useQueryClient();
  const reload = useCallback(
    () => void client.cancelQueries({ predicate: (q) => q.queryHash === hash }).then(() => refetch()),
    [client, hash, refetch],
  );
  return { data: (query.data ?? null) as T | null, problem, loading: query.isFetching, placeholder: query.isPlaceholderData, reload };
}

/**
 * Starts loading what a `useLoad(key, load)` will ask for, before its page renders (the job board
 * at start-up, main.tsx): the page then finds the answer in flight or in the cache instead of
 * asking after its first render. The same key and `load` as the page's `useLoad`; failures are
 * left for the page's own `useLoad` to show.
 * @param client the console's query client (query.ts)
 */
export function prefetchLoad<T>(client: QueryClient, key: QueryKey, load: () => Promise<T>): void {
  prefetched.add(hashKey(key));
  void client.prefetchQuery({ queryKey: key, queryFn: async () => (await load()) ?? null });
}

/** The query hashes of prefetchLoad's answers not yet shown by a page: each spares one mount's read (useLoad forgets it once mounted). */
const prefetched = new Set<string>();

/**
 * A submitted form's values (its submission prevented: the page sends them itself).
 * @param e the form's submit event
 * @returns each named field's value as text, e.g. `{ email: 'a@b.test', password: '...' }`
 */
export function formValues(e: FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}

/** Runs an action (a write), keeping its problem for display next to it. */
export function useAction() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (fn: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await fn();
    } catch (e) {
      setProblem(describeProblem(e, navigator.onLine));
    } finally {
      setBusy(false);
    }
  }, []);
  return { problem, busy, run, setProblem };
}

// The formatters are made once: `toLocaleString` with options builds a new Intl formatter on
// every call (a board of 20 cards paid that for each date on each render).
/** formatDateTime's: the browser's time zone, as `toLocaleString('en-GB', ...)` gave. */
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
/** formatDate's: the day as stored (midnight UTC). */
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
/** formatPence's: "£1,234.50". */
const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
/** formatLondonDateTime's. */
const LONDON_DATE_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "21 Nov 2026, 09:00" in the user's time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  return DATE_TIME.format(new Date(iso));
}

/** "25 Nov 2026" for a date (the visit day is midnight UTC). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  return DATE.format(new Date(iso));
}

/** "Thu 26 Nov 2026, 16:00": an instant as London's date and time, whatever the browser's time zone. */
export function formatLondonDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const p = Object.fromEntries(
    LONDON_DATE_TIME.formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`;
}

/** formatLondonDate's. */
const LONDON_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/** "Thu 26 Nov 2026": the London day of an instant (or of a YYYY-MM-DD date), '-' when there is none. */
export function formatLondonDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  const at = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
  const p = Object.fromEntries(LONDON_DATE.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** "£1,234.50" from pence. */
export function formatPence(pence: number): string {
  return POUNDS.format(pence / 100);
}

/** The Caretaker mark (a house on the brand colour) with the name beside it unless `markOnly`. */
export function Logo({ markOnly = false, size = 32 }: { markOnly?: boolean; size?: number }) {
  return (
    <span className="logo">
      <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="#1f4e79" />
        <path d="M7 16.5 16 8l9 8.5V25H7z" fill="#fff" />
        <path d="M13.5 25v-5.5h5V25z" fill="#ffbf47" />
      </svg>
      {markOnly ? null : <span className="logo-name">Caretaker</span>}
    </span>
  );
}

/** True while the media query matches ("(max-width: 40rem)" for a phone); follows resizes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const m = window.matchMedia(query);
      m.addEventListener('change', notify);
      return () => m.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
  );
}

/** The width below which tables become cards and the job board's filters fold away. */
export const PHONE_QUERY = '(max-width: 40rem)';

/** What a confirmation asks: its title, what happens, the confirm button, and an optional text box. */
export interface ConfirmRequest {
  title: string;
  body?: ReactNode;
  confirmLabel: string;
  /** The button that backs out ("Keep the job"); "Go back" when not given. */
  cancelLabel?: string;
  /** Red confirm button for what cannot be undone. */
  danger?: boolean;
  /** A text box in the dialog (a reason or a note), passed to onConfirm; `required` refuses an empty one. */
  text?: { label: string; required?: boolean; initial?: string };
  /** An amount in pounds (required when given), passed to onConfirm in pence. */
  amount?: { label: string; initial?: string };
  onConfirm: (text: string, pence: number | null) => void;
}

/** The dialog of confirm-dialog.tsx, downloaded the first time a page asks (it is built on react-aria). */
const ConfirmDialog = lazy(async () => ({ default: (await import('./confirm-dialog.tsx')).ConfirmDialog }));

/**
 * The one confirmation dialog of the console (confirm-dialog.tsx: an alertdialog on react-aria's
 * Modal, focus moves into it and stays there, Escape backs out): `ask` opens it, `dialog` is
 * rendered by the page (nothing until the first `ask`).
 */
export function useConfirm(): { ask: (req: ConfirmRequest) => void; dialog: ReactNode } {
  const [req, setReq] = useState<ConfirmRequest | null>(null);
  const [asked, setAsked] = useState(false);
  const ask = useCallback((r: ConfirmRequest) => {
    setAsked(true);
    setReq(r);
  }, []);
  const dialog = asked ? (
    <Suspense fallback={null}>
      <ConfirmDialog request={req} onClose={() => setReq(null)} />
    </Suspense>
  ) : null;
  return { ask, dialog };
}
