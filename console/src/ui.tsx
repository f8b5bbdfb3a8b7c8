/**
 * Shared pieces of the console's pages, on react-aria-components (accessible labels, descriptions
 * and error messages wired to their inputs, keyboard and screen-reader behaviour): text fields,
 * buttons, the problem message with its retry button, page titles, and a data-loading hook.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button as AriaButton, FieldError, Input, Label, Text, TextArea, TextField, type ButtonProps } from 'react-aria-components';
import { describeProblem, type Problem } from './logic/errors.ts';

/** A labelled text input (or textarea with `multiline`); errors come from the surrounding Form's `validationErrors`. */
export function Field(props: {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'search';
  isRequired?: boolean;
  multiline?: boolean;
  description?: string;
  autoComplete?: string;
  defaultValue?: string;
  minLength?: number;
  maxLength?: number;
}) {
  return (
    <TextField
      className="field"
      name={props.name}
      type={props.type ?? 'text'}
      isRequired={props.isRequired}
      defaultValue={props.defaultValue}
      autoComplete={props.autoComplete}
      minLength={props.minLength}
      maxLength={props.maxLength}
    >
      <Label>
        {props.label}
        {props.isRequired ? <span aria-hidden="true"> *</span> : null}
      </Label>
      {props.multiline ? <TextArea rows={4} /> : <Input />}
      {props.description ? <Text slot="description">{props.description}</Text> : null}
      <FieldError className="field-error" />
    </TextField>
  );
}

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

/** A button; `variant` picks the look (primary, secondary, danger). */
export function Button({ variant = 'primary', className, ...rest }: ButtonProps & { variant?: 'primary' | 'secondary' | 'danger' }) {
  return <AriaButton {...rest} className={`btn btn-${variant}${className ? ` ${className}` : ''}`} />;
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

/** Loads data with `load`; gives `{ data, problem, loading, reload }`. Reloads when `deps` change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let live = true;
    setLoading(true);
    run().then(
      (d) => {
        if (!live) return;
        setData(d);
        setProblem(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setProblem(describeProblem(e, navigator.onLine));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [run, tick]);
  return { data, problem, loading, reload: () => setTick((n) => n + 1) };
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

/** "21 Nov 2026, 09:00" in the user's time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  return new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** "25 Nov 2026" for a date (the visit day is midnight UTC). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** "£1,234.50" from pence. */
export function formatPence(pence: number): string {
  return (pence / 100).toLocaleString('en-GB', { style: 'currency', currency: 'GBP' });
}
