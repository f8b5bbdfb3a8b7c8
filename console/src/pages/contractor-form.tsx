/**
 * /contractors/new and /contractors/{uuid}/edit (docs/console.md "Creating and editing"): the
 * contractor's company, contact, trades, areas and address (POST/PUT /api/contractors, PUT
 * .../trades and .../coverage), and deactivating or reactivating it after a confirmation.
 */
import { useState, type FormEvent } from 'react';
import { Checkbox, CheckboxGroup, Form, Label, Text } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api.ts';
import type { Contractor } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { districtsOf, InviteToApp, Loaded, Notice, reader, splitProblem, useSavedNotice } from './people-forms.tsx';
import '../people-forms.css';

type Trade = { ID: number; code: string; name: string };

const CONTRACTOR_FIELDS = ['company_name', 'contact_name', 'email', 'phone', 'coverage', 'trade_ids', 'address_line1', 'address_line2', 'address_town', 'address_postcode', 'notes'];

/** /contractors/new and /contractors/{uuid}/edit: the contractor form (company, contact, trades, areas, address). */
export function ContractorFormPage() {
  const { uuid } = useParams();
  const [notice, setNotice] = useSavedNotice();
  const contractor = useLoad(['contractors', uuid ?? 'new'], async () =>
    uuid ? ((await api.GET('/api/contractors/{uuid}', { params: { path: { uuid } } })).data!.data as Contractor) : ({} as Partial<Contractor>),
  );
  const trades = useLoad(['trades'], async () => (await api.GET('/api/contractors/trades', { params: { query: {} } })).data!.data as Trade[]);
  return (
    <>
      <PageTitle>{uuid ? 'Edit contractor' : 'New contractor'}</PageTitle>
      <p>
        <Link to="/contractors">Back to contractors</Link>
      </p>
      <Notice text={notice} />
      <Loaded load={contractor}>
        {(c) => (
          <>
            {c.uuid ? <InviteToApp kind="contractor" uuid={c.uuid} hasLogin={c.has_login} /> : null}
            <ContractorForm
              key={c.updated_at ?? 'new'}
              contractor={c}
              trades={trades.data ?? []}
              onSaved={(text) => {
                setNotice(text);
                contractor.reload();
              }}
            />
          </>
        )}
      </Loaded>
    </>
  );
}

function ContractorForm({ contractor, trades, onSaved }: { contractor: Partial<Contractor>; trades: Trade[]; onSaved: (notice: string) => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const uuid = contractor.uuid;
  const [tradeIds, setTradeIds] = useState<string[]>((contractor.trades ?? []).map((t) => String(t.ID)));
  const { errors, other } = splitProblem(action.problem, CONTRACTOR_FIELDS, { districts: 'coverage', contacts: 'contact_name' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = reader(e.currentTarget);
    const fields = {
      company_name: v('company_name') ?? '',
      contact_name: v('contact_name'),
      email: v('email'),
      phone: v('phone'),
      notes: v('notes'),
      address_line1: v('address_line1'),
      address_line2: v('address_line2'),
      address_town: v('address_town'),
      address_postcode: v('address_postcode'),
    };
    const ids = tradeIds.map(Number);
    const coverage = districtsOf(v('coverage'));
    void action.run(async () => {
      if (!uuid) {
        const { data } = await api.POST('/api/contractors', { body: { ...fields, trade_ids: ids, coverage } });
        const created = data!.data as Contractor;
        navigate(`/contractors/${created.uuid}/edit`, { state: { saved: `${created.company_name} created.` } });
        return;
      }
      const path = { params: { path: { uuid } } };
      await api.PUT('/api/contractors/{uuid}', { ...path, body: fields });
      const before = (contractor.trades ?? []).map((t) => t.ID).sort((a, b) => a - b);
      if (JSON.stringify(before) !== JSON.stringify([...ids].sort((a, b) => a - b))) await api.PUT('/api/contractors/{uuid}/trades', { ...path, body: { trade_ids: ids } });
      const oldCoverage = (contractor.coverage ?? []).join(' ');
      if (oldCoverage !== coverage.map((d) => d.toUpperCase()).join(' ')) await api.PUT('/api/contractors/{uuid}/coverage', { ...path, body: { districts: coverage } });
      onSaved('Changes saved.');
    });
  };
  const setActive = (active: boolean) =>
    void action.run(async () => {
      await api.PUT('/api/contractors/{uuid}', { params: { path: { uuid: uuid! } }, body: { active } });
      onSaved(active ? `${contractor.company_name} is active again.` : `${contractor.company_name} deactivated: no new jobs are offered to them.`);
    });
  return (
    <>
      <Form className="form" aria-label={uuid ? `Edit ${contractor.company_name}` : 'New contractor'} onSubmit={onSubmit} validationErrors={errors}>
        <Field name="company_name" label="Company name" isRequired maxLength={200} defaultValue={contractor.company_name ?? ''} />
        <Field name="contact_name" label="Contact name" maxLength={200} defaultValue={contractor.contact_name ?? ''} />
        <Field name="email" label="E-mail address" type="email" maxLength={254} defaultValue={contractor.email ?? ''} />
        <Field name="phone" label="Phone" maxLength={30} defaultValue={contractor.phone ?? ''} description="Digits, spaces and brackets, such as 0113 496 0000." />
        <CheckboxGroup
          className="field checkbox-group"
          value={tradeIds}
          onChange={setTradeIds}
          isInvalid={Boolean(errors.trade_ids)}
        >
          <Label>Trades</Label>
          {trades.map((t) => (
            <Checkbox key={t.ID} value={String(t.ID)} className="checkbox">
              <span className="box" aria-hidden="true" />
              {t.name}
            </Checkbox>
          ))}
          {errors.trade_ids ? <Text slot="errorMessage" className="field-error">{errors.trade_ids}</Text> : null}
        </CheckboxGroup>
        <Field
          name="coverage"
          label="Areas covered"
          maxLength={2000}
          defaultValue={(contractor.coverage ?? []).join(', ')}
          description="Postcode districts, separated by commas, such as LS6, LS7."
        />
        <fieldset className="field-set">
          <legend>Business address (printed on their invoices)</legend>
          <Field name="address_line1" label="Address line 1" maxLength={200} defaultValue={contractor.address?.line1 ?? ''} />
          <Field name="address_line2" label="Address line 2" maxLength={200} defaultValue={contractor.address?.line2 ?? ''} />
          <Field name="address_town" label="Town" maxLength={100} defaultValue={contractor.address?.town ?? ''} />
          <Field name="address_postcode" label="Postcode" maxLength={10} defaultValue={contractor.address?.postcode ?? ''} />
        </fieldset>
        <Field name="notes" label="Notes" multiline maxLength={2000} defaultValue={contractor.notes ?? ''} />
        {other ? <ProblemMessage problem={other} /> : null}
        <Button type="submit" isDisabled={action.busy}>
          {uuid ? 'Save changes' : 'Create contractor'}
        </Button>
      </Form>
      {uuid ? (
        <section aria-labelledby="contractor-status">
          <h2 id="contractor-status">Status</h2>
          <p>{contractor.active ? 'Active: offered jobs that match their trades and areas.' : 'Deactivated: not offered new jobs.'}</p>
          {contractor.active ? (
            <Button
              variant="danger"
              isDisabled={action.busy}
              onPress={() =>
                ask({
                  title: `Deactivate ${contractor.company_name}?`,
                  body: <p>They are no longer offered new jobs. Jobs already assigned to them stay as they are. You can reactivate them later.</p>,
                  confirmLabel: 'Deactivate',
                  cancelLabel: 'Keep them active',
                  danger: true,
                  onConfirm: () => setActive(false),
                })
              }
            >
              Deactivate contractor
            </Button>
          ) : (
            <Button variant="secondary" isDisabled={action.busy} onPress={() => setActive(true)}>
              Reactivate contractor
            </Button>
          )}
          <p>
            <Link to={`/contractors/${uuid}`}>Scorecard and certificates</Link>
          </p>
        </section>
      ) : null}
      {dialog}
    </>
  );
}
