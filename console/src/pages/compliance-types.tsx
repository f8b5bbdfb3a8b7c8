/**
 * Custom compliance item types on the compliance page (docs/compliance.md "Item types", "In the
 * console"): the agency's own types beside the UK ones set by law; holders of
 * `api.compliance.manage` add one (POST /api/compliance/types, its code made from the name) or
 * rename one in a dialog (PUT /api/compliance/types/{uuid}: its items and certificates keep it),
 * or retire one after a confirmation (DELETE /api/compliance/types/{uuid}: no new items or
 * schedules, its items and certificates stay).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { typeCodeOf } from '../logic/recurrence.ts';
import { useUrlTable } from '../logic/url-table.ts';
import type { ComplianceType } from '../types.ts';
import { Button, ProblemMessage, useAction, useConfirm } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';

/**
 * The custom types section; `onChanged` reloads the page's type list. Its table sorts and pages (25
 * a page) in the browser from the URL's `types-sort`, `types-order` and `types-page`.
 */
export function TypesSection({ types, canManage, onChanged }: { types: ComplianceType[]; canManage: boolean; onChanged: () => void }) {
  const table = useUrlTable(['type', 'renewed'], 'types');
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(0);
  const custom = types.filter((t) => t.custom);
  const uk = types.filter((t) => !t.custom).map((t) => t.name);
  const retire = (t: ComplianceType) =>
    ask({
      title: `Retire "${t.name}"?`,
      body: 'No new items or schedules can use it. Its items and certificates stay in the register.',
      confirmLabel: 'Retire type',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          setDone(null);
          await api.DELETE('/api/compliance/types/{uuid}', { params: { path: { uuid: t.uuid } } });
          setDone(`"${t.name}" retired.`);
          onChanged();
        }),
    });
  const rename = (t: ComplianceType) =>
    ask({
      title: `Rename "${t.name}"`,
      body: 'Its items, schedules and certificates keep it under the new name.',
      confirmLabel: 'Save name',
      text: { label: 'New name', required: true, initial: t.name },
      onConfirm: (name) =>
        void action.run(async () => {
          setDone(null);
          await api.PUT('/api/compliance/types/{uuid}', { params: { path: { uuid: t.uuid } }, body: { name } });
          setDone(`"${t.name}" is now "${name}".`);
          onChanged();
        }),
    });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const months = String(f.get('interval_months') ?? '').trim();
    const document = String(f.get('required_document') ?? '').trim();
    const found: Record<string, string> = {};
    const code = typeCodeOf(name);
    if (!name || !code) found.name = 'Enter a name with letters or numbers, such as "PAT testing".';
    if (months !== '' && !(Number.isInteger(Number(months)) && Number(months) >= 1 && Number(months) <= 600)) found.interval_months = 'Enter a number of months from 1 to 600, or leave it empty.';
    if (!document) found.required_document = 'Say which document proves it, such as "PAT test report".';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    void action.run(async () => {
      setDone(null);
      await api.POST('/api/compliance/types', {
        body: { code, name, interval_months: months === '' ? null : Number(months), required_document: document, hmo_only: f.get('hmo_only') === 'on' },
      });
      setDone(`"${name}" added. Add it to properties above.`);
      setFormKey((k) => k + 1);
      onChanged();
    });
  };
  const columns: Column<ComplianceType>[] = [
    { header: 'Type', sortKey: 'type', sortValue: (t) => t.name, cell: (t) => t.name },
    {
      header: 'Renewed',
      sortKey: 'renewed',
      sortValue: (t) => t.interval_months,
      cell: (t) => (t.interval_months ? `every ${t.interval_months} months` : 'no fixed interval'),
      key: true,
    },
    { header: 'Proved by', cell: (t) => t.required_document, key: true },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      key: true,
      cell: (t) => (
        <div className="button-row">
          <Button variant="secondary" aria-label={`Rename: ${t.name}`} isDisabled={action.busy} onPress={() => rename(t)}>
            Rename
          </Button>
          <Button variant="danger" aria-label={`Retire: ${t.name}`} isDisabled={action.busy} onPress={() => retire(t)}>
            Retire
          </Button>
        </div>
      ),
    });
  return (
    <section aria-labelledby="compliance-types">
      <h2 id="compliance-types">Custom item types</h2>
      <p className="hint">Set by law for every agency: {uk.join(', ')}.</p>
      <ProblemMessage problem={action.problem} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {custom.length === 0 ? (
        <p className="empty-state">No custom types yet. Add one for checks your agency keeps beyond the law, such as PAT testing.</p>
      ) : (
        <DataTable label="Custom compliance types" columns={columns} rows={custom} rowKey={(t) => t.uuid} {...table} />
      )}
      {canManage ? (
        <form key={formKey} className="form inline" onSubmit={submit} noValidate aria-label="Add a custom type">
          <Labelled label="Name of the type" required error={errors.name ?? null}>
            {(id, d) => <input id={id} name="name" maxLength={120} aria-invalid={Boolean(errors.name) || undefined} aria-describedby={d} />}
          </Labelled>
          <Labelled label="Renewed every (months)" hint="Leave empty when it has no fixed interval." error={errors.interval_months ?? null}>
            {(id, d) => <input id={id} name="interval_months" type="number" min={1} max={600} inputMode="numeric" aria-invalid={Boolean(errors.interval_months) || undefined} aria-describedby={d} />}
          </Labelled>
          <Labelled label="Document that proves it" required error={errors.required_document ?? null}>
            {(id, d) => <input id={id} name="required_document" maxLength={500} aria-invalid={Boolean(errors.required_document) || undefined} aria-describedby={d} />}
          </Labelled>
          <label className="checkbox-native">
            <input type="checkbox" name="hmo_only" /> Only for houses in multiple occupation
          </label>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy}>
              Add type
            </Button>
          </div>
        </form>
      ) : null}
      {dialog}
    </section>
  );
}
