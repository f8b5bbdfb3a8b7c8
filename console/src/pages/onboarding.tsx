/**
 * Onboarding pages (docs/onboarding.md; the agencies themselves are in agency.tsx): an administrator
 * adds a branch (POST /api/admin/branches) and imports properties, tenants, contractors and
 * landlords from CSV or XLSX (POST /api/imports: the dry run with every row's outcome, then
 * POST /api/imports/{uuid}/commit), each import then on its own page (`/imports/{uuid}`,
 * GET /api/imports/{uuid}: its state, progress or place in the queue, counts and rows with errors).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Form } from 'react-aria-components';
import { api } from '../api.ts';
import type { ImportEntity } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, formatLondonDateTime, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { Loaded } from './people-forms.tsx';

/** Administrators: add a branch (shown under the branch list). */
export function AddBranch({ onAdded }: { onAdded: () => void }) {
  const action = useAction();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    void action.run(async () => {
      await api.POST('/api/admin/branches', { body: { name } });
      form.reset();
      onAdded();
    });
  };
  return (
    <Form className="form" onSubmit={onSubmit} validationErrors={action.problem?.field ? { [action.problem.field]: action.problem.message } : {}}>
      <h2>Add a branch</h2>
      <Field name="name" label="Branch name" isRequired maxLength={100} />
      {action.problem && !action.problem.field ? <ProblemMessage problem={action.problem} /> : null}
      <Button type="submit" isDisabled={action.busy}>
        Add branch
      </Button>
    </Form>
  );
}

const ENTITIES: Record<ImportEntity, string> = {
  addresses: 'Properties',
  tenants: 'Tenants (with their property)',
  contractors: 'Contractors (trades, areas, certificates)',
  landlords: 'Landlords (with their properties and shares)',
};

/** True when `value` is one of ENTITIES. */
function isImportEntity(value: string): value is ImportEntity {
  return Object.hasOwn(ENTITIES, value);
}

type ImportRun = {
  uuid: string;
  status: string;
  rows_total: number;
  counts: { create: number; update: number; unchanged: number; error: number };
  /** The dry run's optional columns the file lacks: an update keeps those fields as stored (docs/onboarding.md). */
  kept_columns?: string[];
  rows?: Array<{ row: number; outcome: string; errors: Array<{ column: string; reason: string }> }>;
};

/** Administrators: upload a file, read the dry run, then import it. */
export function ImportsPage() {
  const action = useAction();
  const [run, setRun] = useState<ImportRun | null>(null);
  const [committed, setCommitted] = useState<string | null>(null);
  const [last, setLast] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const file = f.get('file');
    if (!(file instanceof File) || file.size === 0) {
      action.setProblem({ message: 'Choose a CSV or XLSX file first.', field: 'file', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const entity = String(f.get('entity'));
    // The select offers ENTITIES only.
    if (!isImportEntity(entity)) return;
    const body = { entity, ...(f.get('skip_bad_rows') ? { skip_bad_rows: 'true' as const } : {}), file };
    setCommitted(null);
    void action.run(async () => {
      const { data } = await api.POST('/api/imports', { body });
      setRun(data!.data as ImportRun);
    });
  };
  const commit = () =>
    action.run(async () => {
      const { data } = await api.POST('/api/imports/{uuid}/commit', { params: { path: { uuid: run!.uuid } }, body: {} });
      const r = data!.data as ImportRun;
      const kept = run!.kept_columns?.length ? ` Columns not in the file, kept as stored: ${run!.kept_columns.join(', ')}.` : '';
      setCommitted(r.status === 'committed' ? `Imported: ${run!.counts.create} created, ${run!.counts.update} updated.${kept}` : `Importing on the queue (${IMPORT_STATUSES[r.status] ?? r.status}).${kept}`);
      setLast(run!.uuid);
      setRun(null);
    });
  const errors = (run?.rows ?? []).filter((r) => r.outcome === 'error');
  return (
    <>
      <PageTitle>Import</PageTitle>
      <p>
        Import properties first, then tenants, contractors and landlords (they name the properties by reference). Templates:{' '}
        {Object.keys(ENTITIES).map((e, i) => (
          <span key={e}>
            {i > 0 ? ', ' : ''}
            <a href={`/api/imports/templates/${e}.csv`}>{e}.csv</a>
          </span>
        ))}
        .
      </p>
      {committed ? (
        <p className="notice" role="status">
          {committed}
          {last ? (
            <>
              {' '}
              <Link to={`/imports/${last}`}>Follow this import</Link>
            </>
          ) : null}
        </p>
      ) : null}
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="entity">What the file holds</label>
          <select id="entity" name="entity" defaultValue="addresses">
            {Object.entries(ENTITIES).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-file">CSV or XLSX file</label>
          <input id="import-file" name="file" type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" />
        </div>
        <div className="field">
          <label>
            <input type="checkbox" name="skip_bad_rows" /> Skip bad rows (import the good ones)
          </label>
        </div>
        <ProblemMessage problem={action.problem} />
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Check file
        </Button>
      </form>
      {run ? (
        <section aria-labelledby="dry-run">
          <h2 id="dry-run">Dry run: {run.rows_total} rows</h2>
          <p className="import-counts">
            {run.counts.create} to create, {run.counts.update} to update, {run.counts.unchanged} unchanged, {run.counts.error} with errors
          </p>
          {run.kept_columns?.length ? (
            <p className="import-kept">
              Columns not in the file, kept as stored: {run.kept_columns.join(', ')}. An empty cell in a column the file has clears that field.
            </p>
          ) : null}
          {errors.length > 0 ? (
            <table>
              <caption>Rows with errors</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {errors.flatMap((r) =>
                  r.errors.map((x, i) => (
                    <tr key={`${r.row}-${i}`}>
                      <td>{r.row}</td>
                      <td>{x.column}</td>
                      <td>{x.reason}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          ) : null}
          <p>
            <Link to={`/imports/${run.uuid}`}>Open this import's own page</Link> (its address stays valid, to come back to it later).
          </p>
          <Button onPress={() => void commit()} isDisabled={action.busy}>
            Import {run.counts.create + run.counts.update} rows
          </Button>
        </section>
      ) : null}
    </>
  );
}

/** An import's states (GET /api/imports/{uuid} `status`), in words. */
const IMPORT_STATUSES: Record<string, string> = {
  checked: 'checked, not imported yet',
  queued: 'waiting its turn',
  committing: 'importing',
  committed: 'imported',
  failed: 'failed',
};

/**
 * An import's own page, `/imports/{uuid}` (GET /api/imports/{uuid}, docs/onboarding.md): what the
 * file holds, its state, the place in the agency's queue while waiting, the rows done while
 * importing (read again every two seconds until it ends), the counts per outcome and the rows with
 * errors; a checked file not yet imported is imported from here (POST /api/imports/{uuid}/commit).
 */
export function ImportPage() {
  const { uuid = '' } = useParams();
  const load = useLoad(['imports', uuid], async () => (await api.GET('/api/imports/{uuid}', { params: { path: { uuid } } })).data!.data);
  const status = load.data?.status;
  const { reload } = load;
  useEffect(() => {
    if (status !== 'queued' && status !== 'committing') return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [status, reload]);
  const action = useAction();
  const commit = () =>
    action.run(async () => {
      await api.POST('/api/imports/{uuid}/commit', { params: { path: { uuid } }, body: {} });
      reload();
    });
  const title = load.data && !load.placeholder ? `Import of ${load.data.file_name}` : 'Import';
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p>
        <Link to="/imports">Back to import</Link>
      </p>
      <Loaded load={load}>
        {(r) => (
          <>
            <dl className="details">
              <dt>What the file holds</dt>
              <dd>{isImportEntity(r.entity) ? ENTITIES[r.entity] : r.entity}</dd>
              <dt>State</dt>
              <dd>
                {IMPORT_STATUSES[r.status] ?? r.status}
                {r.status === 'queued' && r.queue_position ? (r.queue_position === 1 ? ', next in the queue' : `, number ${r.queue_position} in the queue`) : ''}
              </dd>
              <dt>Progress</dt>
              <dd>
                <progress max={Math.max(r.rows_total, 1)} value={r.rows_done} aria-label="Rows imported" /> {r.rows_done} of {r.rows_total} rows
              </dd>
              <dt>Outcome</dt>
              <dd className="import-counts">
                {r.counts.create} to create, {r.counts.update} to update, {r.counts.unchanged} unchanged, {r.counts.error} with errors
              </dd>
              <dt>Bad rows</dt>
              <dd>{r.skip_bad_rows ? 'Skipped (the good rows are imported)' : 'Stop the import'}</dd>
              <dt>Checked</dt>
              <dd>{formatLondonDateTime(r.created_at)}</dd>
              {r.committed_at ? (
                <>
                  <dt>Imported</dt>
                  <dd>{formatLondonDateTime(r.committed_at)}</dd>
                </>
              ) : null}
            </dl>
            {r.failure ? (
              <p className="field-error" role="alert">
                {r.failure}
              </p>
            ) : null}
            {r.status === 'checked' ? (
              <>
                <ProblemMessage problem={action.problem} />
                <Button isDisabled={action.busy} onPress={() => void commit()}>
                  {r.counts.create + r.counts.update === 1 ? 'Import 1 row' : `Import ${r.counts.create + r.counts.update} rows`}
                </Button>
              </>
            ) : null}
            {(r.rows ?? []).length === 0 ? (
              <p className="empty-state">No row has an error.</p>
            ) : (
              <table>
                <caption>Rows with errors</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Column</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {(r.rows ?? []).flatMap((row) =>
                    row.errors.map((x, i) => (
                      <tr key={`${row.row}-${i}`}>
                        <td>{row.row}</td>
                        <td>{x.column}</td>
                        <td>{x.reason}</td>
                      </tr>
                    )),
                  )}
                </tbody>
              </table>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
