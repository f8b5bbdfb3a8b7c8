/**
 * Onboarding pages (docs/onboarding.md; the agencies themselves are in agency.tsx): an administrator
 * adds a branch (POST /api/admin/branches) and imports properties, tenants, contractors and
 * landlords from CSV or XLSX (POST /api/imports: the dry run with every row's outcome, then
 * POST /api/imports/{uuid}/commit).
 */
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../api.ts';
import type { ImportEntity } from '../types.ts';
import { Button, Field, PageTitle, ProblemMessage, useAction } from '../ui.tsx';

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
      setCommitted(r.status === 'committed' ? `Imported: ${run!.counts.create} created, ${run!.counts.update} updated.${kept}` : `Importing on the queue (${r.status}).${kept}`);
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
          <Button onPress={() => void commit()} isDisabled={action.busy}>
            Import {run.counts.create + run.counts.update} rows
          </Button>
        </section>
      ) : null}
    </>
  );
}
