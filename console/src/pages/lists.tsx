/**
 * The staff's directory and administration pages, each a searchable, paged, sortable table with
 * its search, page and sort in the URL (`?q=leeds&page=2&sort=town&order=asc`): contractors (with
 * certificates expiring in the next 30 days), tenants, addresses, users (with an invitation form),
 * branches and the activity log. Contractors, tenants, properties and users are created and
 * edited on the pages of people-forms.tsx, reached by each list's "New ..." button and "Edit" links.
 */
import type { FormEvent, ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { apiSortQuery, keepSort, type SortDescriptor } from '../logic/sort.ts';
import { useUrlTable } from '../logic/url-table.ts';
import type { ActivityEntry, Address, Branch, Certificate, Contractor, SortOf, Tenant, User } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, formatDate, formatDateTime, Options, Pager, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { useSession } from '../session.tsx';
import { AddBranch } from './onboarding.tsx';
import { useSharingToggle } from './agent-sharing.ts';
import { queryClient, refreshAfterWrite } from '../query.ts';
import { useGrantableRoles } from './people-forms.tsx';
import { NewLink, useEditColumn } from './people-forms.tsx';

/** Loads one page: the search text, the rows to skip, and the sort when the API sorts the list (else null; `K`: the list's sort values). */
type Loader<T, K extends string> = (q: string, offset: number, sort: SortDescriptor<K> | null) => Promise<{ data: T[]; count: number }>;

async function page<T>(call: Promise<{ data?: unknown }>): Promise<{ data: T[]; count: number }> {
  const { data } = await call;
  return data as { data: T[]; count: number };
}

/**
 * A table with search, paging and sort kept in the URL (`?q=...&page=2&sort=name&order=asc`).
 * Every list here (GET /api/users, /api/contractors, /api/tenants, /api/addresses,
 * /api/admin/branches) takes `sort` and `order` (docs/api.md): the columns' `sortKey`s are the
 * API's sort fields and have no `sortValue`, the sort is passed to `load` and the API orders every
 * page (a new sort goes back to page 1). A column with a `sortValue` would sort the rows of the
 * page shown, in the browser; `load` then gets null for the sort. `K` is the list's sort values
 * (SortOf), so a column's `sortKey` the API does not sort by fails the typecheck.
 */
export function ListTable<T extends object, K extends string>({
  label,
  load,
  columns,
  rowKey,
  searchable = true,
  searchLabel = 'Search',
  searchHint,
  searchParam = 'q',
  empty,
}: {
  /** What the rows are ("tenants"), shown with the count; also the first part of the list's cache key. */
  label: string;
  load: Loader<T, K>;
  columns: Column<T, K>[];
  rowKey: (r: T) => string;
  searchable?: boolean;
  /** The label of the box whose text is passed to `load` as `q` (and kept in the URL as ?q=). */
  searchLabel?: string;
  /** A hint shown under the box. */
  searchHint?: string;
  /** The URL parameter that keeps the box's text (q by default). */
  searchParam?: string;
  /** What to do next, shown instead of the table when the list is empty and not searched. */
  empty?: ReactNode;
}) {
  const [search, setSearch] = useSearchParams();
  const q = search.get(searchParam) ?? '';
  const { sort, onSortChange, page: p } = useUrlTable(columns.flatMap((c) => (c.sortKey ? [c.sortKey] : [])));
  // The API sorts when the sorted column has no value to sort by in the browser.
  const apiSort = sort && !columns.find((c) => c.sortKey === sort.column)?.sortValue ? sort : null;
  const list = useLoad([label, 'page', { q, p, ...apiSortQuery(apiSort) }], () => load(q, (p - 1) * PAGE_SIZE, apiSort));
  const pages = pageCount(list.data?.count ?? 0);
  const go = (next: { q?: string; page?: number }) => {
    const s = keepSort(search, new URLSearchParams());
    const nq = next.q ?? q;
    if (nq) s.set(searchParam, nq);
    if ((next.page ?? 1) > 1) s.set('page', String(next.page));
    setSearch(s);
  };
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    go({ q: String(new FormData(e.currentTarget).get('q') ?? '') });
  };
  return (
    <>
      {searchable ? (
        <form className="filters filters-short" role="search" aria-label={`Search ${label}`} onSubmit={onSearch} key={q}>
          <label>
            {searchLabel}
            <input type="search" name="q" defaultValue={q} aria-describedby={searchHint ? 'list-search-hint' : undefined} />
          </label>
          <Button type="submit" variant="secondary">
            {searchLabel === 'Search' ? 'Search' : 'Filter'}
          </Button>
          {searchHint ? (
            <p id="list-search-hint" className="hint">
              {searchHint}
            </p>
          ) : null}
        </form>
      ) : null}
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <p className="count" aria-live="polite">
        {list.loading ? 'Loading…' : counted(list.data?.count ?? 0, label)}
      </p>
      {empty && !list.loading && !q && list.data?.count === 0 ? (
        <div className="empty-state" role="note">
          {empty}
        </div>
      ) : (
        <DataTable label={label} columns={columns} rows={list.data?.data ?? []} rowKey={rowKey} sort={sort} onSortChange={onSortChange} />
      )}
      <Pager page={p} pages={pages} onPage={(page) => go({ page })} />
    </>
  );
}

/** Contractors, with the certificates that expire within 30 days (or have expired) above them. */

/** The one of each list's plural label, for "1 user". */
const SINGULAR: Record<string, string> = { contractors: 'contractor', tenants: 'tenant', addresses: 'address', users: 'user', branches: 'branch', entries: 'entry', landlords: 'landlord' };

/** "1 user", "23 users": a list's count with its label. */
function counted(n: number, label: string): string {
  return `${n} ${n === 1 ? (SINGULAR[label] ?? label) : label}`;
}
export function ContractorsPage() {
  const expiring = useLoad(
    () => page<Certificate>(api.GET('/api/contractors/certifications/expiring', { params: { query: { days: 30, limit: 50 } } })),
    [],
  );
  const edit = useEditColumn<Contractor>('api.contractors.manage', (r) => `/contractors/${r.uuid}/edit`, (r) => r.company_name);
  return (
    <>
      <PageTitle actions={<NewLink to="/contractors/new" permission="api.contractors.manage">New contractor</NewLink>}>Contractors</PageTitle>
      <section aria-labelledby="expiring">
        <h2 id="expiring">Certificates expiring in the next 30 days</h2>
        <ProblemMessage problem={expiring.problem} onRetry={expiring.reload} />
        {expiring.data && expiring.data.data.length === 0 ? <p>None.</p> : null}
        <ul className="warnings">
          {(expiring.data?.data ?? []).map((c) => (
            <li key={c.uuid} className={c.days_left < 0 ? 'expired' : 'expiring'}>
              <strong>{c.company_name}</strong>: {c.cert_name},{' '}
              {c.days_left < 0 ? `expired ${formatDate(c.expires_on)}` : `expires ${formatDate(c.expires_on)} (in ${c.days_left} days)`}
            </li>
          ))}
        </ul>
      </section>
      <h2>All contractors</h2>
      <ListTable<Contractor, SortOf<'/api/contractors'>>
        label="contractors"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No contractors yet. Import your list of firms with their trades, areas and certificates (POST /api/imports with entity <code>contractors</code>;
            template at <a href="/api/imports/templates/contractors.csv">contractors.csv</a>), or add them one by one in the{' '}
            <a href="/docs#/contractors">API reference</a>.
          </p>
        }
        load={(q, offset, sort) =>
          page(api.GET('/api/contractors', { params: { query: { ...(q ? { q } : {}), ...apiSortQuery(sort), limit: PAGE_SIZE, offset } } }))
        }
        // Sorted by the API (its sort fields), across every page.
        columns={[
          { header: 'Company', sortKey: 'company_name', cell: (r) => <Link to={`/contractors/${r.uuid}`}>{r.company_name}</Link> },
          { header: 'Contact', key: true, sortKey: 'contact_name', cell: (r) => [r.contact_name, r.phone].filter(Boolean).join(', ') || '-' },
          { header: 'Trades', key: true, cell: (r) => r.trades.map((t) => t.name).join(', ') || '-' },
          { header: 'Areas', cell: (r) => r.coverage.join(', ') || '-' },
          { header: 'Active', sortKey: 'active', cell: (r) => (r.active ? 'yes' : 'no') },
          ...edit,
        ]}
      />
    </>
  );
}

/** Tenants. */
export function TenantsPage() {
  const edit = useEditColumn<Tenant>('api.tenants.manage', (r) => `/tenants/${r.uuid}/edit`, (r) => r.name);
  return (
    <>
      <PageTitle actions={<NewLink to="/tenants/new" permission="api.tenants.manage">New tenant</NewLink>}>Tenants</PageTitle>
      <ListTable<Tenant, SortOf<'/api/tenants'>>
        label="tenants"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No tenants yet. Import them with their addresses (POST /api/imports with entity <code>tenants</code>; template at{' '}
            <a href="/api/imports/templates/tenants.csv">tenants.csv</a>); import the properties first.
          </p>
        }
        load={(q, offset, sort) =>
          page(api.GET('/api/tenants', { params: { query: { ...(q ? { q } : {}), ...apiSortQuery(sort), limit: PAGE_SIZE, offset } } }))
        }
        // Sorted by the API (its sort fields), across every page.
        columns={[
          { header: 'Name', sortKey: 'name', cell: (r) => r.name },
          { header: 'E-mail', key: true, sortKey: 'email', cell: (r) => r.email ?? '-' },
          { header: 'Phone', key: true, cell: (r) => r.mobile ?? r.phone ?? '-' },
          { header: 'Addresses', sortKey: 'address_count', cell: (r) => r.address_count },
          { header: 'Can sign in', cell: (r) => (r.has_login ? 'yes' : 'no') },
          ...edit,
        ]}
      />
    </>
  );
}

/** Addresses (properties). */
export function AddressesPage() {
  const edit = useEditColumn<Address>('api.addresses.manage', (r) => `/addresses/${r.uuid}/edit`, (r) => `${r.line1}, ${r.postcode}`);
  return (
    <>
      <PageTitle actions={<NewLink to="/addresses/new" permission="api.addresses.manage">New property</NewLink>}>Addresses</PageTitle>
      <ListTable<Address, SortOf<'/api/addresses'>>
        label="addresses"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No properties yet. Import them from a spreadsheet (POST /api/imports with entity <code>addresses</code>; template at{' '}
            <a href="/api/imports/templates/addresses.csv">addresses.csv</a>) before logging the first job.
          </p>
        }
        load={(q, offset, sort) =>
          page(api.GET('/api/addresses', { params: { query: { ...(q ? { q } : {}), ...apiSortQuery(sort), limit: PAGE_SIZE, offset } } }))
        }
        // Sorted by the API (its sort fields), across every page.
        columns={[
          { header: 'Address', sortKey: 'line1', cell: (r) => <Link to={`/properties/${r.uuid}`}>{[r.line1, r.line2].filter(Boolean).join(', ')}</Link> },
          { header: 'Town', key: true, sortKey: 'town', cell: (r) => r.town },
          { header: 'Postcode', key: true, sortKey: 'postcode', cell: (r) => r.postcode },
          { header: 'Branch', key: true, sortKey: 'branch_name', cell: (r) => r.branch_name ?? '-' },
          { header: 'HMO', key: true, sortKey: 'is_hmo', cell: (r) => (r.is_hmo ? 'Yes' : 'No') },
          ...edit,
        ]}
      />
    </>
  );
}

/** Users of the agency, and an invitation by e-mail (POST /api/users with invite: true). */
export function UsersPage() {
  const branches = useLoad(() => page<Branch>(api.GET('/api/admin/branches', { params: { query: { limit: 200 } } })), []);
  const action = useAction();
  const [search, setSearch] = useSearchParams();
  const sent = search.get('invited');
  const edit = useEditColumn<User>('api.users.manage', (r) => `/users/${r.uuid}/edit`, (r) => r.name);
  // Staff roles only here; a contractor's or tenant's login is linked to its record on /users/new.
  const roles = (useGrantableRoles().data ?? []).filter((r) => r.code !== 'contractor' && r.code !== 'tenant');
  const onInvite = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const branch = String(f.get('branch_uuid') ?? '');
    void action.run(async () => {
      await api.POST('/api/users', {
        body: {
          invite: true,
          name: String(f.get('name') ?? ''),
          email: String(f.get('email') ?? ''),
          role: String(f.get('role') ?? 'agent'),
          ...(branch ? { branch_uuid: branch } : {}),
        },
      });
      form.reset();
      setSearch(new URLSearchParams({ invited: String(f.get('email') ?? '') }));
      // The list and its count on this page show the new person at once, without a reload.
      await refreshAfterWrite(queryClient, ['users']);
    });
  };
  return (
    <>
      <PageTitle actions={<NewLink to="/users/new" permission="api.users.manage">New user</NewLink>}>Users</PageTitle>
      <ListTable<User, SortOf<'/api/users'>>
        label="users"
        rowKey={(r) => r.uuid}
        empty={<p>Nobody here yet besides you. Invite your agents with the form below; each gets an e-mail with a link valid 7 days.</p>}
        load={(q, offset, sort) =>
          page(api.GET('/api/users', { params: { query: { ...(q ? { q } : {}), ...apiSortQuery(sort), limit: PAGE_SIZE, offset } } }))
        }
        // Sorted by the API (its sort fields), across every page.
        columns={[
          { header: 'Name', sortKey: 'name', cell: (r) => r.name },
          { header: 'E-mail', key: true, sortKey: 'email', cell: (r) => r.email },
          { header: 'Role', key: true, sortKey: 'role', cell: (r) => r.role },
          { header: 'Branch', key: true, sortKey: 'branch_name', cell: (r) => r.branch_name ?? '-' },
          { header: 'Status', key: true, sortKey: 'status', cell: (r) => r.status },
          { header: 'Last sign-in', sortKey: 'last_login_at', cell: (r) => formatDateTime(r.last_login_at) },
          ...edit,
        ]}
      />
      <h2 id="invite-title">Invite someone</h2>
      {sent ? (
        <p className="notice" role="status">
          Invitation sent to {sent}.
        </p>
      ) : null}
      <Form
        className="form"
        aria-labelledby="invite-title"
        onSubmit={onInvite}
        validationErrors={action.problem?.field && ['name', 'email'].includes(action.problem.field) ? { [action.problem.field]: action.problem.message } : {}}
      >
        <Field name="name" label="Name" isRequired maxLength={200} />
        <Field name="email" label="E-mail address" type="email" isRequired />
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="agent" key={roles.length} aria-describedby="invite-role-hint">
            {roles.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </select>
          <p className="hint" id="invite-role-hint">
            A contractor or tenant gets a login from their own record (“Invite to the app”).
          </p>
        </div>
        <div className="field">
          <label htmlFor="invite-branch">Branch</label>
          <select id="invite-branch" name="branch_uuid" defaultValue="">
            <option value="">No branch</option>
            {(branches.data?.data ?? [])
              .filter((b) => !b.closed_at)
              .map((b) => (
                <option key={b.uuid} value={b.uuid}>
                  {b.name}
                </option>
              ))}
          </select>
        </div>
        {action.problem && !['name', 'email'].includes(action.problem.field ?? '') ? <ProblemMessage problem={action.problem} /> : null}
        <Button type="submit" isDisabled={action.busy}>
          Send invitation
        </Button>
      </Form>
    </>
  );
}

/** Branches of the agency. */
export function BranchesPage() {
  const session = useSession();
  // After a branch is added or changed, every list of branches reads again, and a read sent before
  // the write is dropped (refreshAfterWrite). Mounting the table again, as before, gave it the
  // answer of such a read still on its way: the list stayed without the new branch.
  const changed = () => void refreshAfterWrite(queryClient, ['branches']);
  return (
    <>
      <PageTitle>Branches</PageTitle>
      <ListTable<Branch, SortOf<'/api/admin/branches'>>
        label="branches"
        rowKey={(r) => r.uuid}
        empty={<p>No branches yet. An agency's first branch is made with the agency; add more below.</p>}
        load={(q, offset, sort) =>
          page(
            api.GET('/api/admin/branches', {
              params: { query: { ...(q ? { q } : {}), include_closed: true, ...apiSortQuery(sort), limit: PAGE_SIZE, offset } },
            }),
          )
        }
        // Sorted by the API (its sort fields), across every page.
        columns={[
          { header: 'Branch', sortKey: 'name', cell: (r) => r.name },
          { header: 'Agency', sortKey: 'agency', cell: (r) => r.agency.name },
          { header: 'Shares jobs', key: true, cell: (r) => (r.sharing_enabled ? 'yes' : 'no') },
          { header: 'Status', key: true, cell: (r) => (r.closed_at ? `closed ${formatDate(r.closed_at)}` : 'open') },
          ...(session.permissions.has('api.admin.branches.manage')
            ? [{ header: 'Actions', key: true, cell: (r: Branch) => <BranchActions branch={r} onChanged={changed} /> }]
            : []),
        ]}
      />
      {session.permissions.has('api.admin.branches.manage') && session.me?.agency_uuid ? <AddBranch onAdded={changed} /> : null}
    </>
  );
}

/**
 * A branch's Rename (PUT /api/admin/branches/{uuid}), Close and Reopen (POST .../close, .../reopen),
 * Share jobs and Stop sharing (POST /api/agents/branch-sharing with its branch_uuid, agents.tsx),
 * each after a dialog; a closed branch takes no new jobs or users, its records stay.
 */
function BranchActions({ branch, onChanged }: { branch: Branch; onChanged: () => void }) {
  const session = useSession();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const sharing = useSharingToggle(() => onChanged(), action.run);
  const path = { params: { path: { uuid: branch.uuid } } };
  return (
    <div className="button-row">
      {session.permissions.has('api.agents.branch_sharing') && !branch.closed_at ? (
        <Button
          variant="secondary"
          aria-label={`${branch.sharing_enabled ? 'Stop sharing' : 'Share jobs'}: ${branch.name}`}
          onPress={() => sharing.toggle({ uuid: branch.uuid, name: branch.name, enabled: branch.sharing_enabled })}
        >
          {branch.sharing_enabled ? 'Stop sharing' : 'Share jobs'}
        </Button>
      ) : null}
      {sharing.dialog}
      <Button
        variant="secondary"
        aria-label={`Rename: ${branch.name}`}
        onPress={() =>
          ask({
            title: `Rename the ${branch.name} branch`,
            confirmLabel: 'Save name',
            text: { label: 'New name', required: true, initial: branch.name },
            onConfirm: (name) =>
              void action.run(async () => {
                await api.PUT('/api/admin/branches/{uuid}', { ...path, body: { name } });
                onChanged();
              }),
          })
        }
      >
        Rename
      </Button>
      {branch.closed_at ? (
        <Button
          variant="secondary"
          aria-label={`Reopen: ${branch.name}`}
          onPress={() =>
            ask({
              title: `Reopen the ${branch.name} branch?`,
              body: 'It takes new jobs, properties and users again.',
              confirmLabel: 'Reopen branch',
              onConfirm: () =>
                void action.run(async () => {
                  await api.POST('/api/admin/branches/{uuid}/reopen', { ...path, body: {} });
                  onChanged();
                }),
            })
          }
        >
          Reopen
        </Button>
      ) : (
        <Button
          variant="danger"
          aria-label={`Close: ${branch.name}`}
          onPress={() =>
            ask({
              title: `Close the ${branch.name} branch?`,
              body: 'It takes no new jobs, properties or users. Its jobs and records stay, and it can be reopened.',
              confirmLabel: 'Close branch',
              cancelLabel: 'Keep it open',
              danger: true,
              onConfirm: () =>
                void action.run(async () => {
                  await api.POST('/api/admin/branches/{uuid}/close', { ...path, body: {} });
                  onChanged();
                }),
            })
          }
        >
          Close
        </Button>
      )}
      <ProblemMessage problem={action.problem} />
      {dialog}
    </div>
  );
}

/** Action categories of the activity log's filter: the prefix sent as action_prefix, and its label. */
const ACTION_CATEGORIES: Record<string, string> = {
  'job.': 'Jobs',
  'invoice.': 'Invoices',
  quote: 'Quotes',
  'payment.': 'Payments',
  'user.': 'Users',
  'auth.': 'Sign-ins',
  'tenant.': 'Tenants',
  'contractor.': 'Contractors',
  'role.': 'Roles',
};

/** "job.assignment_accept" -> "Assignment accept"; known actions by name. */
const ACTION_WORDS: Record<string, string> = {
  'job.create': 'Job reported',
  'job.transition': 'Status changed',
  'job.cancel': 'Job cancelled',
  'job.update': 'Job edited',
  'job.assign': 'Contractor assigned',
  'job.assignment_accept': 'Assignment accepted',
  'job.assignment_decline': 'Assignment declined',
  'job_note.create': 'Note added',
  'auth.login': 'Signed in',
  'auth.logout': 'Signed out',
  'auth.login_failed': 'Sign-in failed',
  'invoice.create': 'Invoice drafted',
  'invoice.issue': 'Invoice issued',
  'invoice.void': 'Invoice voided',
  'payment.record': 'Payment recorded',
  'quote.submit': 'Quote submitted',
  'quote.approve': 'Quote approved',
  'user.invite': 'User invited',
};

/** An entry's action in words: "Status changed: Reported -> Assigned". */
export function actionWords(e: { action: string; from_status?: string | null; to_status?: string | null }): string {
  const words = ACTION_WORDS[e.action] ?? (e.action.split('.').pop() ?? e.action).replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
  if (e.from_status && e.to_status && e.from_status !== e.to_status) return `${words}: ${e.from_status} -> ${e.to_status}`;
  return words;
}

/** The console page of an entry's record, when it has one. */
function recordLink(e: ActivityEntry): string | null {
  if (!e.resource_uuid) return null;
  if (e.resource_type === 'job') return `/jobs/${e.resource_uuid}`;
  if (e.resource_type === 'contractor') return `/contractors/${e.resource_uuid}`;
  if (e.resource_type === 'invoice') return `/invoices?q=${encodeURIComponent(e.resource_label ?? '')}`;
  if (e.resource_type === 'user') return `/users?q=${encodeURIComponent(e.resource_label ?? '')}`;
  if (e.resource_type === 'tenant') return `/tenants?q=${encodeURIComponent(e.resource_label ?? '')}`;
  return null;
}

/**
 * The activity log, newest first, in words, each record linked, filtered by category
 * (`?category=job.`). GET /api/admin/activity-log takes no sort parameter (its pages follow the
 * (created_at, id) order its keyset cursors compare), so the columns are not sortable: a header
 * that sorted only the page shown would pretend to order the log (docs/console.md "Sorting and paging").
 */
export function ActivityPage() {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('category') ?? '';
  const category = Object.hasOwn(ACTION_CATEGORIES, raw) ? raw : '';
  const p = Math.max(1, Number(search.get('page')) || 1);
  const list = useLoad(
    () =>
      page<ActivityEntry>(
        api.GET('/api/admin/activity-log', {
          params: { query: { ...(category ? { action_prefix: category } : {}), resources: true, limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE } },
        }),
      ),
    [category, p],
  );
  const go = (next: { category?: string; page?: number }) => {
    const s = new URLSearchParams();
    const c = next.category ?? category;
    if (c) s.set('category', c);
    if ((next.page ?? 1) > 1) s.set('page', String(next.page));
    setSearch(s);
  };
  return (
    <>
      <PageTitle>Activity log</PageTitle>
      <form
        className="filters filters-short"
        role="search"
        aria-label="Filter the activity log"
        key={category}
        onSubmit={(e) => {
          e.preventDefault();
          go({ category: String(new FormData(e.currentTarget).get('category') ?? '') });
        }}
      >
        <label>
          What
          <select name="category" defaultValue={category}>
            <option value="">Everything</option>
            <Options labels={ACTION_CATEGORIES} />
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </form>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <p className="count" aria-live="polite">
        {list.loading ? 'Loading…' : counted(list.data?.count ?? 0, 'entries')}
      </p>
      <DataTable<ActivityEntry>
        label="entries"
        rowKey={(r) => String(r.ID)}
        rows={list.data?.data ?? []}
        empty={
          list.loading || list.problem ? null : category ? (
            <p>
              Nothing of this kind recorded. Choose <strong>Everything</strong> under What and press Filter to see every entry.
            </p>
          ) : (
            <p>Nothing recorded yet. Sign-ins, changes to jobs, people and settings appear here as they happen.</p>
          )
        }
        columns={[
          { header: 'What', cell: (r) => actionWords(r) },
          { header: 'Record', key: true, cell: (r) => <RecordCell entry={r} /> },
          { header: 'Who', key: true, cell: (r) => r.user_name },
          { header: 'When', key: true, cell: (r) => formatDateTime(r.created_at) },
          { header: 'From (IP address)', cell: (r) => r.ip_address },
        ]}
      />
      <Pager page={p} pages={pageCount(list.data?.count ?? 0)} onPage={(page) => go({ page })} />
    </>
  );
}

function RecordCell({ entry }: { entry: ActivityEntry }) {
  const label = `${entry.resource_type.replaceAll('_', ' ')} ${entry.resource_label ?? (entry.resource_id !== null ? `#${entry.resource_id}` : '')}`.trim();
  const to = recordLink(entry);
  return to ? <Link to={to}>{label.replace(/^./, (c) => c.toUpperCase())}</Link> : <>{label.replace(/^./, (c) => c.toUpperCase())}</>;
}
