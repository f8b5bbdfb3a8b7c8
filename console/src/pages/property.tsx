/**
 * A property's page (`/properties/{uuid}`, docs/console.md "Property page"): everything the agency
 * knows about one address in one place: its details, its landlords with their shares and the spend
 * limit that applies (GET /api/landlords/properties/{address_uuid}), its tenants
 * (GET /api/tenants?address_uuid=), its compliance items with every certificate
 * (GET /api/compliance?address_uuid= and GET /api/compliance/items/{uuid}), its jobs
 * (GET /api/jobs/manage?address_uuid=), the documents of its certificates and latest jobs, and the
 * conversations of those jobs, what it has for its compliance (gas supply, storeys, rooms with a
 * combustion appliance: compliance-extras.tsx), and its Awaab's Law scope (office-more.tsx). Each section shows only to holders of the permission it reads.
 * Reached from the address list, the job page and the search results.
 */
import { type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { LIMIT_SOURCES, shareWords } from '../logic/landlords.ts';
import { poundsToPence } from '../logic/money.ts';
import { queryClient, refreshAfterWrite } from '../query.ts';
import { useSession } from '../session.tsx';
import { DataTable, type Column } from '../table.tsx';
import type { AddressDetail, ComplianceItemDetail, JobDocument, JobSummary, PropertyOwnership, Tenant, Thread } from '../types.ts';
import { Button, formatDate, formatDateTime, formatPence, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { COMPLIANCE_STATUSES } from './compliance.tsx';
import { PropertyHazardScope } from './office-more.tsx';
import { PropertyProfile } from './compliance-extras.tsx';
import { formatBytes } from './job-files.tsx';
import { Loaded } from './people-forms.tsx';
import { addressLabel } from './property-picker.tsx';
import { Tenancies } from './property-tenancies.tsx';
import { StatusBadge } from './jobs.tsx';

/** How many of the property's latest jobs give their documents and conversations to the page. */
const LATEST_JOBS = 5;

/** "Landlord", "Tenant", "Contractor": a conversation's audience in words. */
const AUDIENCES: Record<string, string> = { tenant: 'Tenant', contractor: 'Contractor', landlord: 'Landlord' };

/** The property page. */
export function PropertyPage() {
  const { uuid = '' } = useParams();
  const address = useLoad(['addresses', uuid], async () => (await api.GET('/api/addresses/{uuid}', { params: { path: { uuid } } })).data!.data);
  const title = address.data && !address.placeholder ? addressLabel(address.data) : 'Property';
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p>
        <Link to="/addresses">Back to the addresses</Link>
      </p>
      <Loaded load={address}>{(a) => <Property address={a} />}</Loaded>
    </>
  );
}

function Property({ address: a }: { address: AddressDetail }) {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const jobs = useLoad(['jobs', 'property', a.uuid], async () =>
    (await api.GET('/api/jobs/manage', { params: { query: { address_uuid: a.uuid, limit: 50, sort: 'created_at', order: 'desc' } } })).data!,
  );
  const latest = (jobs.data?.data ?? []).slice(0, LATEST_JOBS);
  return (
    <>
      <section aria-labelledby="property-details">
        <h2 id="property-details">Details</h2>
        <dl className="details">
          <dt>Address</dt>
          <dd>{[a.line1, a.line2, a.line3, a.town, a.county, a.postcode].filter(Boolean).join(', ')}</dd>
          <dt>Branch</dt>
          <dd>{a.branch_name ?? 'none'}</dd>
          <dt>House in multiple occupation</dt>
          <dd>{a.is_hmo ? 'Yes' : 'No'}</dd>
          {a.is_communal ? (
            <>
              <dt>Communal areas</dt>
              <dd>The building’s shared areas (its shared certificates are kept here)</dd>
            </>
          ) : null}
        </dl>
        {can('api.addresses.manage') ? (
          <p>
            <Link to={`/addresses/${a.uuid}/edit`}>Edit the address</Link>
          </p>
        ) : null}
      </section>
      {can('api.landlords.view') ? <Owners addressUuid={a.uuid} /> : null}
      {can('api.tenants.view') ? <Tenants addressUuid={a.uuid} /> : null}
      {can('api.compliance.view') ? <Compliance addressUuid={a.uuid} /> : null}
      {can('api.compliance.manage') ? <PropertyProfile addressUuid={a.uuid} onSaved={() => void refreshAfterWrite(queryClient, ['compliance', 'property', a.uuid])} /> : null}
      {can('api.compliance.view') ? <Tenancies addressUuid={a.uuid} canManage={can('api.compliance.manage')} /> : null}
      {can('api.hazards.view') && session.me?.agency_uuid ? <PropertyHazardScope addressUuid={a.uuid} /> : null}
      <section aria-labelledby="property-jobs">
        <h2 id="property-jobs">Jobs</h2>
        <ProblemMessage problem={jobs.problem} onRetry={jobs.reload} />
        <JobsTable jobs={jobs.data?.data ?? []} loading={jobs.loading && !jobs.data} count={jobs.data?.count ?? 0} />
        {can('api.jobs.manage.manage') ? (
          <p>
            <Link to="/jobs/new">Log a new job</Link>
          </p>
        ) : null}
      </section>
      <Documents jobs={latest} addressUuid={a.uuid} />
      {can('api.jobs.conversations.manage') ? <Conversations jobs={latest} addressUuid={a.uuid} /> : null}
    </>
  );
}

/** The property's landlords with their shares, and the spend limit that applies. */
function Owners({ addressUuid }: { addressUuid: string }) {
  const session = useSession();
  const owners = useLoad(['landlords', 'property', addressUuid], async () =>
    (await api.GET('/api/landlords/properties/{address_uuid}', { params: { path: { address_uuid: addressUuid } } })).data!.data,
  );
  return (
    <section aria-labelledby="property-landlords">
      <h2 id="property-landlords">Landlord</h2>
      <ProblemMessage problem={owners.problem} onRetry={owners.reload} />
      {owners.data ? (
        <>
          {owners.data.owners.length === 0 ? (
            <p>
              No landlord linked. Link one from the landlord’s page (<Link to="/landlords">Landlords</Link>).
            </p>
          ) : (
            <ul>
              {owners.data.owners.map((o) => (
                <li key={o.landlord_uuid}>
                  <Link to={`/landlords/${o.landlord_uuid}`}>{o.name}</Link>, owns {shareWords(o.share_bp)}
                </li>
              ))}
            </ul>
          )}
          <p>
            Spend limit: {owners.data.effective_limit_pence === null ? 'none' : formatPence(owners.data.effective_limit_pence)} (
            {LIMIT_SOURCES[owners.data.limit_source]}). Costs above it wait for the landlord’s approval.
          </p>
          {session.permissions.has('api.landlords.manage') ? <PropertyLimit ownership={owners.data} onChanged={owners.reload} /> : null}
        </>
      ) : null}
    </section>
  );
}

/** The property's own spend limit (PUT /api/landlords/properties/{address_uuid}/approval-limit). */
function PropertyLimit({ ownership, onChanged }: { ownership: PropertyOwnership; onChanged: () => void }) {
  const action = useAction();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = String(new FormData(e.currentTarget).get('limit') ?? '').trim();
    const pence = text === '' ? null : poundsToPence(text);
    if (text !== '' && pence === null) {
      action.setProblem({ message: 'Type the limit in pounds, such as 250, or leave it empty.', field: 'limit', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      await api.PUT('/api/landlords/properties/{address_uuid}/approval-limit', {
        params: { path: { address_uuid: ownership.address.uuid } },
        body: { limit_pence: pence },
      });
      onChanged();
    });
  };
  return (
    <form className="form inline" aria-label="The property's own spend limit" onSubmit={onSubmit}>
      <label>
        This property’s own limit in pounds (empty: its landlords’ or the agency’s)
        <input name="limit" inputMode="decimal" defaultValue={ownership.property_limit_pence === null ? '' : (ownership.property_limit_pence / 100).toFixed(2)} />
      </label>
      <Button type="submit" variant="secondary" isDisabled={action.busy}>
        Save the limit
      </Button>
      <ProblemMessage problem={action.problem} />
    </form>
  );
}

/** The tenants living at the property. */
function Tenants({ addressUuid }: { addressUuid: string }) {
  const session = useSession();
  const tenants = useLoad(['tenants', 'property', addressUuid], async () =>
    (await api.GET('/api/tenants', { params: { query: { address_uuid: addressUuid, limit: 50 } } })).data!.data,
  );
  const manage = session.permissions.has('api.tenants.manage');
  const columns: Column<Tenant, never>[] = [
    { header: 'Name', cell: (t) => (manage ? <Link to={`/tenants/${t.uuid}/edit`}>{t.name}</Link> : t.name) },
    { header: 'Phone', key: true, cell: (t) => t.mobile ?? t.phone ?? '-' },
    { header: 'E-mail', key: true, cell: (t) => t.email ?? '-' },
    { header: 'Can sign in', key: true, cell: (t) => (t.has_login ? 'Yes' : 'No') },
  ];
  return (
    <section aria-labelledby="property-tenants">
      <h2 id="property-tenants">Tenants</h2>
      <ProblemMessage problem={tenants.problem} onRetry={tenants.reload} />
      <DataTable
        label="Tenants"
        columns={columns}
        rows={tenants.data ?? []}
        rowKey={(t) => t.uuid}
        empty={tenants.loading ? <p className="loading">Loading…</p> : <p>No tenants at this property.{manage ? ' Add one from the Tenants page.' : ''}</p>}
      />
    </section>
  );
}

/** The property's compliance items, each with every certificate recorded for it. */
function Compliance({ addressUuid }: { addressUuid: string }) {
  const items = useLoad(['compliance', 'property', addressUuid], async () => {
    const list = (await api.GET('/api/compliance', { params: { query: { address_uuid: addressUuid, limit: 100 } } })).data!.data;
    return Promise.all(list.map(async (i) => (await api.GET('/api/compliance/items/{uuid}', { params: { path: { uuid: i.uuid } } })).data!.data));
  });
  return (
    <section aria-labelledby="property-compliance">
      <h2 id="property-compliance">Compliance and certificates</h2>
      <ProblemMessage problem={items.problem} onRetry={items.reload} />
      {items.data && items.data.length === 0 ? (
        <p>
          No compliance items. Add the gas safety record, EICR and EPC on the <Link to="/compliance">Compliance</Link> page.
        </p>
      ) : null}
      {items.loading && !items.data ? <p className="loading">Loading…</p> : null}
      <ul className="compliance-items">
        {(items.data ?? []).map((i) => (
          <li key={i.uuid}>
            <strong>{i.type_name}</strong>: {COMPLIANCE_STATUSES[i.status] ?? 'Unknown'}
            {i.expires_on ? `, expires ${formatDate(i.expires_on)}` : i.certificate_uuid ? ', no expiry' : ''}
            <Certificates item={i} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Certificates({ item }: { item: ComplianceItemDetail }) {
  if (item.certificates.length === 0) return <p className="hint">No certificate recorded yet.</p>;
  return (
    <ul>
      {item.certificates.map((c) => (
        <li key={c.uuid}>
          {c.reference}, issued {formatDate(c.issued_on)}
          {c.expires_on ? `, expires ${formatDate(c.expires_on)}` : ''}
          {c.contractor_name ? ` by ${c.contractor_name}` : ''}
          {c.job_uuid && c.file_uuid ? (
            <>
              {' '}
              (<a href={`/api/jobs/${c.job_uuid}/documents/${c.file_uuid}`}>{c.file_name ?? 'the certificate'}</a>)
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The property's jobs, newest first. */
function JobsTable({ jobs, loading, count }: { jobs: JobSummary[]; loading: boolean; count: number }) {
  const columns: Column<JobSummary, never>[] = [
    { header: 'Job', cell: (j) => <Link to={`/jobs/${j.uuid}`}>{`${j.reference}: ${j.title}`}</Link> },
    { header: 'Status', key: true, cell: (j) => <StatusBadge status={j.status} statusId={j.status_id} /> },
    { header: 'Priority', key: true, cell: (j) => PRIORITIES[j.priority] ?? 'Unknown' },
    { header: 'Trade', key: true, cell: (j) => j.trade ?? '-' },
    { header: 'Contractor', cell: (j) => j.contractor_name ?? 'not assigned' },
    { header: 'Reported', key: true, cell: (j) => formatDate(j.created_at) },
  ];
  return (
    <>
      {count > jobs.length ? <p className="count">The latest {jobs.length} of {count} jobs.</p> : null}
      <DataTable
        label="Jobs"
        columns={columns}
        rows={jobs}
        rowKey={(j) => j.uuid}
        empty={loading ? <p className="loading">Loading…</p> : <p>No jobs at this property yet.</p>}
      />
    </>
  );
}

/** The documents of the property's latest jobs (certificates' files are under each certificate). */
function Documents({ jobs, addressUuid }: { jobs: JobSummary[]; addressUuid: string }) {
  const docs = useLoad(['jobs', 'property', addressUuid, 'documents', jobs.map((j) => j.uuid)], async () => {
    const lists = await Promise.all(
      jobs.map(async (j) => ({ job: j, docs: (await api.GET('/api/jobs/{uuid}/documents', { params: { path: { uuid: j.uuid } } })).data!.data })),
    );
    return lists.flatMap((l) => l.docs.map((d): { job: JobSummary; doc: JobDocument } => ({ job: l.job, doc: d })));
  });
  return (
    <section aria-labelledby="property-documents">
      <h2 id="property-documents">Documents</h2>
      <ProblemMessage problem={docs.problem} onRetry={docs.reload} />
      {docs.data && docs.data.length === 0 ? <p>No documents on the latest {LATEST_JOBS} jobs.</p> : null}
      <ul className="documents">
        {(docs.data ?? []).map(({ job, doc }) => (
          <li key={doc.uuid}>
            <a href={doc.download_url} download>
              {doc.filename}
            </a>{' '}
            <span className="meta">
              {formatBytes(doc.size_bytes)}, <Link to={`/jobs/${job.uuid}`}>{job.reference}</Link>, {formatDateTime(doc.created_at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The conversations of the property's latest jobs, each opening the job's Messages tab. */
function Conversations({ jobs, addressUuid }: { jobs: JobSummary[]; addressUuid: string }) {
  const threads = useLoad(['jobs', 'property', addressUuid, 'threads', jobs.map((j) => j.uuid)], async () => {
    const lists = await Promise.all(
      jobs.map(async (j) => ({ job: j, threads: (await api.GET('/api/jobs/{uuid}/threads', { params: { path: { uuid: j.uuid } } })).data!.data })),
    );
    return lists.flatMap((l) => l.threads.filter((t) => t.message_count > 0).map((t): { job: JobSummary; thread: Thread } => ({ job: l.job, thread: t })));
  });
  return (
    <section aria-labelledby="property-conversations">
      <h2 id="property-conversations">Conversations</h2>
      <ProblemMessage problem={threads.problem} onRetry={threads.reload} />
      {threads.data && threads.data.length === 0 ? <p>No messages on the latest {LATEST_JOBS} jobs.</p> : null}
      <ul className="documents">
        {(threads.data ?? []).map(({ job, thread }) => (
          <li key={thread.uuid}>
            <Link to={`/jobs/${job.uuid}?tab=messages`}>
              {job.reference}, with the {(AUDIENCES[thread.audience] ?? 'other party').toLowerCase()}
            </Link>{' '}
            <span className="meta">
              {thread.message_count === 1 ? '1 message' : `${thread.message_count} messages`}
              {thread.unread_count > 0 ? `, ${thread.unread_count} unread` : ''}
              {thread.last_message_at ? `, last ${formatDateTime(thread.last_message_at)}` : ''}
            </span>
            {thread.last_message_preview ? <span className="quoted">{thread.last_message_preview}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
