/**
 * The kit of the console's forms for the agency's people and places (docs/console.md "Creating
 * and editing"), one form to a file: contractor-form.tsx, tenant-form.tsx, address-form.tsx and
 * user-form.tsx. Here: the "New ..." and "Edit" links of the lists, a refused field beside its
 * input, the saved notice, the select field, the record loader and the branch choices. The forms:
 * contractors (POST/PUT /api/contractors, PUT .../trades and .../coverage),
 * tenants (POST/PUT /api/tenants, linking and unlinking their properties), properties
 * (POST/PUT /api/addresses, and their HMO flag: PUT /api/compliance/properties/{uuid}/hmo) and users (POST /api/users with invite: true, PUT /api/users/{uuid},
 * disable, enable and a new invitation). A refused field is shown beside it in people's words
 * (logic/errors.ts); anything that takes something away (deactivating, disabling, unlinking) is
 * asked about first (useConfirm).
 */
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { api } from '../api.ts';
import type { Problem } from '../logic/errors.ts';
import type { Branch } from '../types.ts';
import { ProblemMessage, useLoad, type Loaded as LoadedState } from '../ui.tsx';
import type { Column } from '../table.tsx';
import { useSession } from '../session.tsx';
import '../people-forms.css';

/** The "New ..." button of a list page's title, for callers holding `permission` (else nothing). */
export function NewLink({ to, permission, children }: { to: string; permission: string; children: string }) {
  const session = useSession();
  if (!session.permissions.has(permission)) return null;
  return (
    <Link to={to} className="btn btn-primary">
      {children}
    </Link>
  );
}

/**
 * The "Edit" column of a list page (shown on a phone's cards too), for callers holding
 * `permission`; none otherwise. `to` is the row's edit page, `name` names the row for screen readers.
 */
export function useEditColumn<T>(permission: string, to: (row: T) => string, name: (row: T) => string): Column<T, never>[] {
  const session = useSession();
  if (!session.permissions.has(permission)) return [];
  return [
    {
      header: 'Edit',
      action: true,
      cell: (r) => (
        <Link to={to(r)} aria-label={`Edit ${name(r)}`}>
          Edit
        </Link>
      ),
    },
  ];
}

/**
 * Splits a problem into the error shown beside a field of the form (keyed by the form's field
 * name; `aliases` maps the API's name to the form's, e.g. districts -> coverage) and the problem
 * shown above the button when it names no field of this form.
 */
export function splitProblem(problem: Problem | null, fields: string[], aliases: Record<string, string> = {}): { errors: Record<string, string>; other: Problem | null } {
  if (!problem) return { errors: {}, other: null };
  const field = problem.field ? (aliases[problem.field] ?? problem.field) : null;
  if (field && fields.includes(field)) return { errors: { [field]: problem.message }, other: null };
  return { errors: {}, other: problem };
}

/** A form's text: trimmed, or null when empty (an optional field left blank, or cleared). */
export function reader(form: HTMLFormElement): (name: string) => string | null {
  const f = new FormData(form);
  return (name) => {
    const v = String(f.get(name) ?? '').trim();
    return v === '' ? null : v;
  };
}

/**
 * The page's notice: the one passed on by navigate(..., { state: { saved } }) after a record is
 * created, or the last one set on this page. Kept per location, since the router keeps the page
 * mounted from /x/new to /x/{uuid}/edit.
 */
export function useSavedNotice(): [string | null, (s: string | null) => void] {
  const location = useLocation();
  const [local, setLocal] = useState<{ key: string; text: string | null } | null>(null);
  const text = local?.key === location.key ? local.text : ((location.state as { saved?: string } | null)?.saved ?? null);
  return [text, (t) => setLocal({ key: location.key, text: t })];
}

export function Notice({ text }: { text: string | null }) {
  return text ? (
    <p className="notice" role="status">
      {text}
    </p>
  ) : null;
}

/** A native select with its label, and its error beside it (aria-describedby), as the text fields have. */
export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  required?: boolean;
  hint?: string;
  onChange?: (value: string) => void;
  children: ReactNode;
}) {
  const described = [props.hint ? `${props.id}-hint` : null, props.error ? `${props.id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={props.id}
        name={props.name}
        defaultValue={props.defaultValue}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={props.onChange ? (e) => props.onChange!(e.target.value) : undefined}
      >
        {props.children}
      </select>
      {props.hint ? (
        <p id={`${props.id}-hint`} className="hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${props.id}-error`} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Loading or the problem of a record's load, else the page's content. The answer for another
 * record (after /contractors/new becomes /contractors/{uuid}/edit on the same page, say) counts as
 * loading: a form filled from it would be replaced, and what was typed lost, when the record arrives.
 */
export function Loaded<T>({ load, children }: { load: Pick<LoadedState<T>, 'data' | 'problem' | 'placeholder' | 'reload'>; children: (data: T) => ReactNode }) {
  if (load.problem) return <ProblemMessage problem={load.problem} onRetry={load.reload} />;
  if (load.data === null || load.placeholder) return <p className="loading">Loading…</p>;
  return <>{children(load.data)}</>;
}

export function BranchOptions({ branches, empty }: { branches: Branch[]; empty: string }) {
  return (
    <>
      <option value="">{empty}</option>
      {branches
        .filter((b) => !b.closed_at)
        .map((b) => (
          <option key={b.uuid} value={b.uuid}>
            {b.name}
          </option>
        ))}
    </>
  );
}

export function useBranches() {
  return useLoad(
    ['branches', 'first', 200],
    async () => (await api.GET('/api/admin/branches', { params: { query: { limit: 200 } } })).data!.data as Branch[],
  );
}

/** A role as GET /api/admin/roles lists it (the fields the forms use). */
export type Role = { id: number; code: string; name: string; level: number };

/** Roles no person is invited to from the console: API accounts are for machines, landlords answer approvals by link. */
const NOT_INVITED = ['api', 'landlord'];

/**
 * The roles the signed-in person may give (docs/users.md: only roles below one's own level; SysOps
 * only by SysOps; never API or Landlord from the console), from GET /api/admin/roles.
 */
export function useGrantableRoles() {
  const session = useSession();
  const level = session.me?.level ?? 0;
  const roles = useLoad(['roles', 'first', 100], async () => (await api.GET('/api/admin/roles', { params: { query: { limit: 100 } } })).data!.data as Role[]);
  const data = roles.data ? grantableRoles(roles.data, level) : null;
  return { ...roles, data };
}

/** The roles of `roles` a person of role level `level` may give (below their level; not API, Landlord or SysOps). */
export function grantableRoles(roles: Role[], level: number): Role[] {
  return roles.filter((r) => r.level < level && r.code !== 'sysops' && !NOT_INVITED.includes(r.code));
}

/**
 * "Invite to the app" on a contractor's, tenant's or landlord's record: opens the new-user form with the
 * record to link (`/users/new?contractor_uuid=...`), for callers who manage users, when the record
 * has no login yet.
 */
export function InviteToApp({ kind, uuid, hasLogin }: { kind: 'contractor' | 'tenant' | 'landlord'; uuid: string; hasLogin?: boolean }) {
  const session = useSession();
  if (!session.permissions.has('api.users.manage') || hasLogin) return null;
  return (
    <p>
      <Link to={`/users/new?${kind}_uuid=${encodeURIComponent(uuid)}`} className="btn btn-secondary">
        Invite to the app
      </Link>
    </p>
  );
}

/** "LS6, ls7 LS8" -> ["LS6", "LS7", "LS8"] (the API checks each and stores them upper case). */
export function districtsOf(text: string | null): string[] {
  return (text ?? '').split(/[\s,;]+/).filter(Boolean);
}
