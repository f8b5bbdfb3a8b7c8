/**
 * The staff's directory and administration pages, each a searchable, paged table with its search
 * and page in the URL: contractors (with certificates expiring in the next 30 days), tenants,
 * addresses, users (with an invitation form), branches and the activity log. Read views of the
 * API; anything beyond an invitation is done in the API reference (/docs) for now.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import type { ActivityEntry, Address, Branch, Certificate, Contractor, Tenant, User } from '../types.ts';
import { Button, Field, formatDate, formatDateTime, Options, Pager, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { useSession } from '../session.tsx';
import { AddBranch } from './onboarding.tsx';

interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

type Loader<T> = (q: string, offset: number) => Promise<{ data: T[]; count: number }>;

async function page<T>(call: Promise<{ data?: unknown }>): Promise<{ data: T[]; count: number }> {
  const { data } = await call;
  return data as { data: T[]; count: number };
}

/** A table with search and paging kept in the URL (`?q=...&page=2`). */
function ListTable<T>({
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
  label: string;
  load: Loader<T>;
  columns: Column<T>[];
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
  const p = Math.max(1, Number(search.get('page')) || 1);
  const list = useLoad(() => load(q, (p - 1) * PAGE_SIZE), [q, p]);
  const pages = pageCount(list.data?.count ?? 0);
  const go = (next: { q?: string; page?: number }) => {
    const s = new URLSearchParams();
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
        {list.loading ? 'Loading…' : `${list.data?.count ?? 0} ${label}`}
      </p>
      {empty && !list.loading && !q && list.data?.count === 0 ? (
        <div className="empty-state" role="note">
          {empty}
        </div>
      ) : (
      <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
        <table>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(list.data?.data ?? []).map((r) => (
              <tr key={rowKey(r)}>
                {columns.map((c) => (
                  <td key={c.header}>{c.cell(r)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      )}
      <Pager page={p} pages={pages} onPage={(page) => go({ page })} />
    </>
  );
}

/** Contractors, with the certificates that expire within 30 days (or have expired) above them. */
export function ContractorsPage() {
  const expiring = useLoad(
    () => page<Certificate>(api.GET('/api/contractors/certifications/expiring', { params: { query: { days: 30, limit: 50 } as never } })),
    [],
  );
  return (
    <>
      <PageTitle>Contractors</PageTitle>
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
      <ListTable<Contractor>
        label="contractors"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No contractors yet. Import your list of firms with their trades, areas and certificates (POST /api/imports with entity{' '}
            <code>contractors</code>; template at <a href="/api/imports/templates/contractors.csv">contractors.csv</a>), or add them one by one in the{' '}
            <a href="/docs#/contractors">API reference</a>.
          </p>
        }
        load={(q, offset) => page(api.GET('/api/contractors', { params: { query: { ...(q ? { q } : {}), limit: PAGE_SIZE, offset } as never } }))}
        columns={[
          { header: 'Company', cell: (r) => <Link to={`/contractors/${r.uuid}`}>{r.company_name}</Link> },
          { header: 'Contact', cell: (r) => [r.contact_name, r.phone].filter(Boolean).join(', ') || '-' },
          { header: 'Trades', cell: (r) => r.trades.map((t) => t.name).join(', ') || '-' },
          { header: 'Areas', cell: (r) => r.coverage.join(', ') || '-' },
          { header: 'Active', cell: (r) => (r.active ? 'yes' : 'no') },
        ]}
      />
    </>
  );
}

/** Tenants. */
export function TenantsPage() {
  return (
    <>
      <PageTitle>Tenants</PageTitle>
      <ListTable<Tenant>
        label="tenants"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No tenants yet. Import them with their addresses (POST /api/imports with entity <code>tenants</code>; template at{' '}
            <a href="/api/imports/templates/tenants.csv">tenants.csv</a>); import the properties first.
          </p>
        }
        load={(q, offset) => page(api.GET('/api/tenants', { params: { query: { ...(q ? { q } : {}), limit: PAGE_SIZE, offset } as never } }))}
        columns={[
          { header: 'Name', cell: (r) => r.name },
          { header: 'E-mail', cell: (r) => r.email ?? '-' },
          { header: 'Phone', cell: (r) => r.mobile ?? r.phone ?? '-' },
          { header: 'Addresses', cell: (r) => r.address_count },
          { header: 'Can sign in', cell: (r) => (r.has_login ? 'yes' : 'no') },
        ]}
      />
    </>
  );
}

/** Addresses (properties). */
export function AddressesPage() {
  return (
    <>
      <PageTitle>Addresses</PageTitle>
      <ListTable<Address>
        label="addresses"
        rowKey={(r) => r.uuid}
        empty={
          <p>
            No properties yet. Import them from a spreadsheet (POST /api/imports with entity <code>addresses</code>; template at{' '}
            <a href="/api/imports/templates/addresses.csv">addresses.csv</a>) before logging the first job.
          </p>
        }
        load={(q, offset) => page(api.GET('/api/addresses', { params: { query: { ...(q ? { q } : {}), limit: PAGE_SIZE, offset } as never } }))}
        columns={[
          { header: 'Address', cell: (r) => [r.line1, r.line2].filter(Boolean).join(', ') },
          { header: 'Town', cell: (r) => r.town },
          { header: 'Postcode', cell: (r) => r.postcode },
          { header: 'Branch', cell: (r) => r.branch_name ?? '-' },
        ]}
      />
    </>
  );
}

const INVITE_ROLES: Record<string, string> = { agent: 'Agent', admin: 'Admin', contractor: 'Contractor', tenant: 'Tenant' };

/** Users of the agency, and an invitation by e-mail (POST /api/users with invite: true). */
export function UsersPage() {
  const branches = useLoad(() => page<Branch>(api.GET('/api/admin/branches', { params: { query: { limit: 200 } as never } })), []);
  const action = useAction();
  const [search, setSearch] = useSearchParams();
  const sent = search.get('invited');
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
        } as never,
      });
      form.reset();
      setSearch(new URLSearchParams({ invited: String(f.get('email') ?? '') }));
    });
  };
  return (
    <>
      <PageTitle>Users</PageTitle>
      <ListTable<User>
        label="users"
        rowKey={(r) => r.uuid}
        empty={<p>Nobody here yet besides you. Invite your agents with the form below; each gets an e-mail with a link valid 7 days.</p>}
        load={(q, offset) => page(api.GET('/api/users', { params: { query: { ...(q ? { q } : {}), limit: PAGE_SIZE, offset } as never } }))}
        columns={[
          { header: 'Name', cell: (r) => r.name },
          { header: 'E-mail', cell: (r) => r.email },
          { header: 'Role', cell: (r) => r.role },
          { header: 'Branch', cell: (r) => r.branch_name ?? '-' },
          { header: 'Status', cell: (r) => r.status },
          { header: 'Last sign-in', cell: (r) => formatDateTime(r.last_login_at) },
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
          <select id="invite-role" name="role" defaultValue="agent">
            <Options labels={INVITE_ROLES} />
          </select>
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
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageTitle>Branches</PageTitle>
      <ListTable<Branch>
        key={version}
        label="branches"
        rowKey={(r) => r.uuid}
        empty={<p>No branches yet. An agency's first branch is made with the agency; add more below.</p>}
        load={(q, offset) =>
          page(api.GET('/api/admin/branches', { params: { query: { ...(q ? { q } : {}), include_closed: true, limit: PAGE_SIZE, offset } as never } }))
        }
        columns={[
          { header: 'Branch', cell: (r) => r.name },
          { header: 'Agency', cell: (r) => r.agency.name },
          { header: 'Shares jobs', cell: (r) => (r.sharing_enabled ? 'yes' : 'no') },
          { header: 'Status', cell: (r) => (r.closed_at ? `closed ${formatDate(r.closed_at)}` : 'open') },
        ]}
      />
      {session.permissions.has('api.admin.branches.manage') && session.me?.agency_uuid ? <AddBranch onAdded={() => setVersion((v) => v + 1)} /> : null}
    </>
  );
}

/** The activity log, newest first. */
export function ActivityPage() {
  return (
    <>
      <PageTitle>Activity log</PageTitle>
      <ListTable<ActivityEntry>
        label="entries"
        searchLabel="Action"
        searchParam="action"
        searchHint="An exact action, such as job.transition or auth.login; empty for all."
        rowKey={(r) => String(r.ID)}
        load={(action, offset) =>
          page(api.GET('/api/admin/activity-log', { params: { query: { ...(action ? { action } : {}), limit: PAGE_SIZE, offset } as never } }))
        }
        columns={[
          { header: 'When', cell: (r) => formatDateTime(r.created_at) },
          { header: 'Who', cell: (r) => r.user_name },
          { header: 'Action', cell: (r) => r.action },
          { header: 'Record', cell: (r) => `${r.resource_type}${r.resource_id !== null ? ` #${r.resource_id}` : ''}` },
          { header: 'From', cell: (r) => r.ip_address },
        ]}
      />
    </>
  );
}
