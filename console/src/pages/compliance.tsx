/**
 * The compliance register for staff (GET /api/compliance and GET /api/compliance/schedules,
 * docs/compliance.md "In the console"): items per status with the totals, each item's latest
 * certificate and its expiry, then the live planned maintenance schedules with the next due dates
 * and the dates their jobs are raised, and the agency's custom item types. Status filter and page
 * in the URL (`/compliance?status=expired&page=2`), with the column sort GET /api/compliance applies
 * across every page (`&sort=expires_on&order=asc`; a new sort goes back to page 1) and the schedules' and types' tables' own sort and page
 * (`&schedules-page=2&types-sort=type`). Holders of `api.compliance.manage` record a
 * certificate on an item, add an item to a property, mark a property an HMO (compliance-forms.tsx),
 * create, edit and delete schedules (compliance-schedules.tsx), add or retire custom types
 * (compliance-types.tsx), edit a certificate's document, tenant's copy, remedial works and
 * exemption, and add an item to many properties at once (compliance-extras.tsx).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { pageCount, PAGE_SIZE } from '../logic/job-filters.ts';
import { useStatusPage } from '../logic/status-page.ts';
import { apiSortQuery } from '../logic/sort.ts';
import { useUrlTable } from '../logic/url-table.ts';
import { useSession } from '../session.tsx';
import type { ComplianceItem, ComplianceStatus, SortOf } from '../types.ts';
import { Button, Options, Pager, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { CertificateForm, PropertyCompliance } from './compliance-forms.tsx';
import { BulkAddSection, CertificateEditForm } from './compliance-extras.tsx';
import { SchedulesSection } from './compliance-schedules.tsx';
import { TypesSection } from './compliance-types.tsx';

/** Item statuses (docs/compliance.md "Statuses"), most urgent first, and their labels. */
export const COMPLIANCE_STATUSES: Record<ComplianceStatus, string> = {
  expired: 'Expired',
  non_compliant: 'Non-compliant',
  missing: 'Missing',
  due_soon: 'Due soon',
  valid: 'Valid',
};

/** The columns GET /api/compliance sorts by (its `sort` values, docs/api.md). */
const COMPLIANCE_SORTS: readonly SortOf<'/api/compliance'>[] = ['address', 'type_name', 'status', 'expires_on', 'contractor_name'];

/** The compliance page. */
export function CompliancePage() {
  const { status, page: p, go, onFilter } = useStatusPage(COMPLIANCE_STATUSES);
  const session = useSession();
  const canManage = session.permissions.has('api.compliance.manage');
  const { sort, onSortChange } = useUrlTable(COMPLIANCE_SORTS);
  const sortQuery = apiSortQuery(sort);
  const register = useLoad(async () => {
    const query = { limit: PAGE_SIZE, offset: (p - 1) * PAGE_SIZE, ...(status ? { status } : {}), ...sortQuery };
    const { data } = await api.GET('/api/compliance', { params: { query: query } });
    return data!;
  }, [status, p, sortQuery.sort, sortQuery.order]);
  const types = useLoad(['compliance', 'types'], async () => (await api.GET('/api/compliance/types', { params: { query: {} } })).data!.data);
  const contractors = useLoad(['contractors', 'first', 100], async () => (await api.GET('/api/contractors', { params: { query: { limit: 100 } } })).data!.data);
  const [recording, setRecording] = useState<ComplianceItem | null>(null);
  const [editing, setEditing] = useState<ComplianceItem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const finish = (message: string) => {
    setRecording(null);
    setEditing(null);
    setDone(message);
    register.reload();
  };
  const totals = register.data?.totals;
  const rows = register.data?.data ?? [];
  const columns: Column<ComplianceItem>[] = [
    // Sorted by the API across every page (no sortValue: the rows arrive in order).
    { header: 'Property', sortKey: 'address', cell: (i) => i.address },
    { header: 'Item', sortKey: 'type_name', cell: (i) => i.type_name, key: true },
    { header: 'Status', sortKey: 'status', cell: (i) => COMPLIANCE_STATUSES[i.status] ?? i.status, key: true },
    { header: 'Expires', sortKey: 'expires_on', cell: (i) => i.expires_on_text ?? (i.certificate_uuid ? 'No expiry' : ''), key: true },
    { header: 'Issued by', sortKey: 'contractor_name', cell: (i) => i.contractor_name ?? '', key: true },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      key: true,
      cell: (i) => (
        <span className="button-row">
          <Button variant="secondary" aria-label={`Record certificate: ${i.type_name}, ${i.address}`} onPress={() => (setDone(null), setEditing(null), setRecording(i))}>
            Record certificate
          </Button>
          {i.certificate_uuid ? (
            <Button variant="secondary" aria-label={`Edit certificate: ${i.type_name}, ${i.address}`} onPress={() => (setDone(null), setRecording(null), setEditing(i))}>
              Edit certificate
            </Button>
          ) : null}
        </span>
      ),
    });
  return (
    <>
      <PageTitle>Compliance</PageTitle>
      <ProblemMessage problem={register.problem} onRetry={register.reload} />
      <section aria-labelledby="compliance-totals">
        <h2 id="compliance-totals">Items by status</h2>
        <ul className="tiles" aria-label="Items by status">
          {Object.entries(COMPLIANCE_STATUSES).map(([k, label]) => (
            <li key={k} className="tile">
              <Link to={`/compliance?status=${k}`}>
                <span className="tile-value">{totals ? totals[k as keyof typeof totals] : '…'}</span>
                <span className="tile-label">{label.toLowerCase()}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <form className="filters filters-short" role="search" aria-label="Filter compliance items" onSubmit={onFilter} key={status}>
        <label>
          Status
          <select name="status" defaultValue={status}>
            <option value="">Any status</option>
            <Options labels={COMPLIANCE_STATUSES} />
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <p className="count" aria-live="polite">
        {register.loading ? 'Loading…' : register.data?.count === 1 ? '1 item' : `${register.data?.count ?? 0} items`}
      </p>
      {!register.loading && !register.problem && rows.length === 0 ? (
        <p className="empty-state">
          {status ? `No ${COMPLIANCE_STATUSES[status]?.toLowerCase() ?? ''} items.` : 'No compliance items yet. Add the gas safety record, EICR and EPC to a property below.'}
        </p>
      ) : null}
      {rows.length > 0 ? <DataTable label="Compliance items" columns={columns} rows={rows} rowKey={(i) => i.uuid} sort={sort} onSortChange={onSortChange} /> : null}
      <Pager page={p} pages={pageCount(register.data?.count ?? 0)} onPage={(page) => go({ page })} />
      {recording ? (
        <CertificateForm key={recording.uuid} item={recording} contractors={contractors.data ?? []} onDone={finish} onCancel={() => setRecording(null)} />
      ) : null}
      {editing ? <CertificateEditForm key={editing.uuid} item={editing} onDone={finish} onCancel={() => setEditing(null)} /> : null}
      {canManage ? <PropertyCompliance types={types.data ?? []} onDone={finish} /> : null}
      {canManage ? <BulkAddSection types={types.data ?? []} onDone={() => register.reload()} /> : null}
      <SchedulesSection types={types.data ?? []} contractors={contractors.data ?? []} canManage={canManage} />
      <ProblemMessage problem={types.problem} onRetry={types.reload} />
      {types.data ? <TypesSection types={types.data} canManage={canManage} onChanged={types.reload} /> : null}
    </>
  );
}
