/**
 * A labelled native input, select or checkbox row, in a module of its own
 * so that the forms that need only it (the job page's hazard section and quote requests) do not
 * bring the property picker and react-aria's collection code that compliance-forms.tsx imports
 * (docs/console.md "How it is built and served").
 */
import { useId, type ReactNode } from 'react';

/** A labelled native input, select or checkbox row with an optional hint and error. */
export function Labelled({ label, hint, error, children, required }: { label: string; hint?: string; error?: string | null; required?: boolean; children: (id: string, describedBy?: string) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children(id, describedBy)}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
