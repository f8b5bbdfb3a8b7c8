/**
 * Exports and reports from buttons, `/exports` (docs/console.md "Exports"): the named reports
 * (`GET /api/reports`, each downloaded as CSV or XLSX from its own endpoint), the invoices and
 * payments for the accounting package (`GET /api/invoices/export/{package}/{kind}`, and the Xero
 * CSVs `bills.csv` and `payments.csv`), the recharges as sales invoices
 * (`GET /api/recharges/export/{package}`; QuickBooks' credit notes apart, `documents=credit_notes`) over a date range, and the agency's whole data as a ZIP
 * (`GET /api/agencies/current/export`). Each file is fetched through the typed client and saved
 * with the browser's download. "Waiting and running" shows the agency's heavy work
 * (`GET /api/agencies/current/heavy-work`, docs/operations.md "Fairness between agencies"): each
 * export or report download holding a slot with its progress, or waiting with its place in the queue.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDateTime, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { saveBlob } from './agency.tsx';

type Format = 'csv' | 'xlsx';
type Package = 'xero' | 'quickbooks' | 'sage';
const PACKAGES: Record<Package, string> = { xero: 'Xero', quickbooks: 'QuickBooks Online', sage: 'Sage 50' };

/**
 * What each report holds, in people's words (the API's own descriptions, GET /api/reports, are
 * written for API clients: paths, field names, units). A report the console does not know yet
 * shows its title alone.
 */
const REPORT_WORDS: Record<string, string> = {
  'jobs-register': 'every job you can see, with its status, priority, property, contractor and dates.',
  'contractor-performance': 'per contractor over the last 90 days: jobs assigned, completed and cancelled, the typical time to complete, first-time fixes and the agreed cost.',
  'sla-compliance': 'the SLA clocks of the last 90 days per branch: met, breached and still running, and the typical time to respond.',
  'tenant-jobs-per-property': 'per property with jobs: its tenants, its jobs in all and still open, and when the latest was reported.',
  'certificates-register': "contractors' certificates that expire in the next 30 days.",
  'compliance-register': 'every compliance item of your properties with its state today (in date, due soon, expired or missing), its latest certificate and who issued it.',
};

function isPackage(v: string): v is Package {
  return Object.hasOwn(PACKAGES, v);
}

/** Downloads one named report (its `name` from GET /api/reports) in `format`. */
async function downloadReport(name: string, format: Format): Promise<Blob | null> {
  const query = { params: { query: { format } } };
  switch (name) {
    case 'jobs-register':
      return (await api.GET('/api/reports/jobs-register', query)).data as Blob;
    case 'contractor-performance':
      return (await api.GET('/api/reports/contractor-performance', query)).data as Blob;
    case 'sla-compliance':
      return (await api.GET('/api/reports/sla-compliance', query)).data as Blob;
    case 'tenant-jobs-per-property':
      return (await api.GET('/api/reports/tenant-jobs-per-property', query)).data as Blob;
    case 'certificates-register':
      return (await api.GET('/api/reports/certificates-register', query)).data as Blob;
    case 'compliance-register':
      return (await api.GET('/api/reports/compliance-register', query)).data as Blob;
    default:
      return null;
  }
}

/** The kinds of heavy work (GET /api/agencies/current/heavy-work `kind`), in words. */
const HEAVY_KINDS: Record<string, string> = {
  export: "Export of the agency's data",
  report: 'Report download',
  gdpr_report: 'Subject-access report',
  backup: 'Database copy',
};

/** "120 of 400 done", "120 done so far" (total not known yet) or "Starting". */
function progressWords(done: number, total: number | null): string {
  if (total !== null) return `${done} of ${total} done`;
  return done > 0 ? `${done} done so far` : 'Starting';
}

/**
 * The agency's heavy work waiting and running (GET /api/agencies/current/heavy-work): read when the
 * page opens, again every three seconds while there is some or a download is under way (`busy`),
 * and on "Check again"; an empty state otherwise.
 */
export function HeavyWorkSection({ busy }: { busy: boolean }) {
  const work = useLoad(['heavy-work'], async () => (await api.GET('/api/agencies/current/heavy-work')).data!.data);
  const count = work.data?.length ?? 0;
  const { reload } = work;
  useEffect(() => {
    if (count === 0 && !busy) return;
    const timer = setInterval(reload, 3_000);
    return () => clearInterval(timer);
  }, [count, busy, reload]);
  return (
    <section aria-labelledby="heavy-work">
      <h2 id="heavy-work">Waiting and running</h2>
      <p className="hint">
        Exports and report downloads run a few at a time for each agency; the others wait their turn here. Imports show their own progress on their page (from{' '}
        <Link to="/imports">Import</Link>).
      </p>
      <ProblemMessage problem={work.problem} onRetry={work.reload} />
      {work.data && count === 0 ? <p className="empty-state">Nothing is waiting or running. A download you start below shows here while it waits for its turn.</p> : null}
      {count > 0 ? (
        <table>
          <caption>Heavy work of the agency</caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col">Asked for</th>
            </tr>
          </thead>
          <tbody>
            {(work.data ?? []).map((w) => (
              <tr key={w.uuid}>
                <td>{HEAVY_KINDS[w.kind] ?? 'Other work'}</td>
                <td>{w.status === 'running' ? 'Running' : w.queue_position === 1 ? 'Waiting: next in the queue' : w.queue_position ? `Waiting: number ${w.queue_position} in the queue` : 'Waiting its turn'}</td>
                <td>
                  {w.status === 'running' ? (
                    <>
                      {w.steps_total !== null ? <progress max={Math.max(w.steps_total, 1)} value={w.steps_done} aria-label={`${HEAVY_KINDS[w.kind] ?? 'Work'} progress`} /> : null} {progressWords(w.steps_done, w.steps_total)}
                    </>
                  ) : (
                    'Not started'
                  )}
                </td>
                <td>{formatLondonDateTime(w.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="button-row">
        <Button variant="secondary" isDisabled={work.loading} onPress={work.reload}>
          Check again
        </Button>
      </div>
    </section>
  );
}

/** The exports page. */
export function ExportsPage() {
  const session = useSession();
  const canReports = session.permissions.has('api.reports.view');
  const canMoney = session.permissions.has('api.invoices.export');
  const canAgency = session.permissions.has('api.agencies.export');
  const reports = useLoad(['reports', canReports], async () => (canReports ? (await api.GET('/api/reports')).data!.data : []));
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
  const save = (name: string, load: () => Promise<Blob | null>) =>
    void action.run(async () => {
      setSaved(null);
      const blob = await load();
      if (!blob) return;
      saveBlob(blob, name);
      setSaved(`${name} downloaded.`);
    });
  const onMoney = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const pkg = String(f.get('package') ?? 'xero');
    const kind = String(f.get('kind') ?? 'bills');
    const format: Format = f.get('format') === 'xlsx' ? 'xlsx' : 'csv';
    const range = { ...(f.get('from_date') ? { from_date: String(f.get('from_date')) } : {}), ...(f.get('to_date') ? { to_date: String(f.get('to_date')) } : {}) };
    if (!isPackage(pkg)) return;
    const file = `${pkg}-${kind}-${today}.${format}`;
    // QuickBooks Online imports sales credit notes apart from invoices (docs/money.md "Exports"); Xero and Sage take both in one file.
    if (kind === 'recharges' || kind === 'recharge-credits') {
      const documents = kind === 'recharge-credits' ? 'credit_notes' : pkg === 'quickbooks' ? 'invoices' : 'all';
      return save(file, async () => (await api.GET('/api/recharges/export/{package}', { params: { path: { package: pkg }, query: { ...range, format, documents } } })).data as Blob);
    }
    if (pkg === 'xero' && format === 'csv' && kind === 'bills') return save(file, async () => (await api.GET('/api/invoices/export/bills.csv', { params: { query: range } })).data as Blob);
    if (pkg === 'xero' && format === 'csv' && kind === 'payments') return save(file, async () => (await api.GET('/api/invoices/export/payments.csv', { params: { query: range } })).data as Blob);
    save(file, async () => (await api.GET('/api/invoices/export/{package}/{kind}', { params: { path: { package: pkg, kind: kind === 'payments' ? 'payments' : 'bills' }, query: { ...range, format } } })).data as Blob);
  };
  return (
    <>
      <PageTitle>Exports and reports</PageTitle>
      <ProblemMessage problem={action.problem} />
      {saved ? (
        <p className="notice" role="status">
          {saved}
        </p>
      ) : null}
      <HeavyWorkSection busy={action.busy} />
      {canReports ? (
        <section aria-labelledby="reports">
          <h2 id="reports">Reports</h2>
          <ProblemMessage problem={reports.problem} onRetry={reports.reload} />
          <ul className="plain-list">
            {(reports.data ?? []).map((r) => (
              <li key={r.name}>
                <strong>{r.title}</strong>
                {REPORT_WORDS[r.name] ? `: ${REPORT_WORDS[r.name]}` : null}{' '}
                <span className="button-row">
                  {r.formats.map((format) =>
                    format === 'csv' || format === 'xlsx' ? (
                      <Button key={format} variant="secondary" isDisabled={action.busy} onPress={() => save(`${r.name}-${today}.${format}`, () => downloadReport(r.name, format))} aria-label={`Download ${r.title} as ${format.toUpperCase()}`}>
                        {format.toUpperCase()}
                      </Button>
                    ) : null,
                  )}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canMoney ? (
        <form className="form" onSubmit={onMoney} aria-labelledby="accounts">
          <h2 id="accounts">For the accounts</h2>
          <div className="field">
            <label htmlFor="export-package">Accounting package</label>
            <select id="export-package" name="package" defaultValue="xero">
              {Object.entries(PACKAGES).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="export-kind">What</label>
            <select id="export-kind" name="kind" defaultValue="bills">
              <option value="bills">Contractors' invoices (bills)</option>
              <option value="payments">Payments made</option>
              <option value="recharges">Recharges (sales invoices; with their credits for Xero and Sage)</option>
              <option value="recharge-credits">Recharge credits only (sales credit notes: QuickBooks imports them apart)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="export-format">File</label>
            <select id="export-format" name="format" defaultValue="csv">
              <option value="csv">CSV</option>
              <option value="xlsx">Excel (XLSX)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="export-from">From</label>
            <input id="export-from" name="from_date" type="date" />
          </div>
          <div className="field">
            <label htmlFor="export-to">To</label>
            <input id="export-to" name="to_date" type="date" />
          </div>
          <Button type="submit" isDisabled={action.busy}>
            Download
          </Button>
        </form>
      ) : null}
      {canAgency ? (
        <section aria-labelledby="agency-export">
          <h2 id="agency-export">The agency's data</h2>
          <p>A ZIP of CSV files: branches, users, properties, tenants, contractors, certificates, jobs, notes and invoices.</p>
          <div className="button-row">
            <Button
              variant="secondary"
              isDisabled={action.busy}
              onPress={() => save(`caretaker-export-${today}.zip`, async () => (await api.GET('/api/agencies/current/export', { params: { query: { files: false } } })).data as Blob)}
            >
              Export data
            </Button>
            <Button
              variant="secondary"
              isDisabled={action.busy}
              onPress={() => save(`caretaker-export-files-${today}.zip`, async () => (await api.GET('/api/agencies/current/export', { params: { query: { files: true } } })).data as Blob)}
            >
              Export with job files
            </Button>
          </div>
        </section>
      ) : null}
    </>
  );
}
