/**
 * Creating and editing the agency's people and places in the console (docs/console.md "Creating
 * and editing"): contractors (POST/PUT /api/contractors, PUT .../trades and .../coverage),
 * tenants (POST/PUT /api/tenants, linking and unlinking their properties), properties
 * (POST/PUT /api/addresses, and their HMO flag: PUT /api/compliance/properties/{uuid}/hmo) and users (POST /api/users with invite: true, PUT /api/users/{uuid},
 * disable, enable and a new invitation). A refused field is shown beside it in people's words
 * (logic/errors.ts); anything that takes something away (deactivating, disabling, unlinking) is
 * asked about first (useConfirm).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Checkbox, CheckboxGroup, Form, Label, Text } from 'react-aria-components';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../api.ts';
import type { Problem } from '../logic/errors.ts';
import type { Address, Branch, Contractor, Tenant, User } from '../types.ts';
import { Button, Field, PageTitle, ProblemMessage, useAction, useConfirm, useLoad, type Loaded as LoadedState } from '../ui.tsx';
import type { Column } from '../table.tsx';
import { useSession } from '../session.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';
import '../people-forms.css';

type TenantDetail = Tenant & { addresses: Address[] };
type Trade = { ID: number; code: string; name: string };
type Role = { id: number; code: string; name: string; level: number };

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
function reader(form: HTMLFormElement): (name: string) => string | null {
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

function BranchOptions({ branches, empty }: { branches: Branch[]; empty: string }) {
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

function useBranches() {
  return useLoad(
    ['branches', 'first', 200],
    async () => (await api.GET('/api/admin/branches', { params: { query: { limit: 200 } } })).data!.data as Branch[],
  );
}

/** "LS6, ls7 LS8" -> ["LS6", "LS7", "LS8"] (the API checks each and stores them upper case). */
export function districtsOf(text: string | null): string[] {
  return (text ?? '').split(/[\s,;]+/).filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Contractors

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
          <ContractorForm
            key={c.updated_at ?? 'new'}
            contractor={c}
            trades={trades.data ?? []}
            onSaved={(text) => {
              setNotice(text);
              contractor.reload();
            }}
          />
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

// ---------------------------------------------------------------------------------------------
// Tenants

const TENANT_FIELDS = ['name', 'email', 'phone', 'mobile', 'address_uuid'];

/** /tenants/new and /tenants/{uuid}/edit: the tenant's details and the properties they live at. */
export function TenantFormPage() {
  const { uuid } = useParams();
  const [notice, setNotice] = useSavedNotice();
  const tenant = useLoad(['tenants', uuid ?? 'new'], async () =>
    uuid ? ((await api.GET('/api/tenants/{uuid}', { params: { path: { uuid } } })).data!.data as TenantDetail) : ({} as Partial<TenantDetail>),
  );
  return (
    <>
      <PageTitle>{uuid ? 'Edit tenant' : 'New tenant'}</PageTitle>
      <p>
        <Link to="/tenants">Back to tenants</Link>
      </p>
      <Notice text={notice} />
      <Loaded load={tenant}>
        {(t) => (
          <>
            <TenantForm
              key={t.updated_at ?? 'new'}
              tenant={t}
              onSaved={(text) => {
                setNotice(text);
                tenant.reload();
              }}
            />
            {t.uuid ? (
              <TenantProperties
                tenant={t as TenantDetail}
                onChanged={(text) => {
                  setNotice(text);
                  tenant.reload();
                }}
              />
            ) : null}
          </>
        )}
      </Loaded>
    </>
  );
}

function TenantForm({ tenant, onSaved }: { tenant: Partial<TenantDetail>; onSaved: (notice: string) => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const [property, setProperty] = useState<Address | null>(null);
  const { errors, other } = splitProblem(action.problem, TENANT_FIELDS);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = reader(e.currentTarget);
    const fields = { name: v('name') ?? '', email: v('email'), phone: v('phone'), mobile: v('mobile') };
    void action.run(async () => {
      if (tenant.uuid) {
        await api.PUT('/api/tenants/{uuid}', { params: { path: { uuid: tenant.uuid } }, body: fields });
        onSaved('Changes saved.');
        return;
      }
      if (!property) {
        action.setProblem({ message: 'Pick the property the tenant lives at.', field: 'address_uuid', retry: false, retryAfterSeconds: null, status: 400 });
        return;
      }
      const { data } = await api.POST('/api/tenants', { body: fields });
      const created = data!.data as TenantDetail;
      await api.POST('/api/tenants/assign-address', { body: { tenant_uuid: created.uuid, address_id: property.ID } });
      navigate(`/tenants/${created.uuid}/edit`, { state: { saved: `${created.name} created, living at ${addressLabel(property)}.` } });
    });
  };
  return (
    <Form className="form" aria-label={tenant.uuid ? `Edit ${tenant.name}` : 'New tenant'} onSubmit={onSubmit} validationErrors={errors}>
      <Field name="name" label="Name" isRequired maxLength={200} defaultValue={tenant.name ?? ''} />
      <Field name="email" label="E-mail address" type="email" maxLength={254} defaultValue={tenant.email ?? ''} />
      <Field name="phone" label="Phone" maxLength={30} defaultValue={tenant.phone ?? ''} description="Digits, spaces and brackets, such as 0113 496 0000." />
      <Field name="mobile" label="Mobile" maxLength={30} defaultValue={tenant.mobile ?? ''} />
      {tenant.uuid ? null : <PropertyPicker onChange={setProperty} problem={errors.address_uuid ?? null} />}
      {other ? <ProblemMessage problem={other} /> : null}
      <Button type="submit" isDisabled={action.busy}>
        {tenant.uuid ? 'Save changes' : 'Create tenant'}
      </Button>
    </Form>
  );
}

/** The tenant's properties: each with an unlink button (asked first), and a picker linking another. */
function TenantProperties({ tenant, onChanged }: { tenant: TenantDetail; onChanged: (notice: string) => void }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [property, setProperty] = useState<Address | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const link = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!property) {
      action.setProblem({ message: 'Pick the property first.', field: 'address_uuid', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      await api.POST('/api/tenants/assign-address', { body: { tenant_uuid: tenant.uuid, address_id: property.ID } });
      setPickerKey((k) => k + 1);
      setProperty(null);
      onChanged(`Linked to ${addressLabel(property)}.`);
    });
  };
  const fieldProblem = action.problem?.field === 'address_uuid' || action.problem?.field === 'address_id' ? action.problem.message : null;
  return (
    <section aria-labelledby="tenant-properties">
      <h2 id="tenant-properties">Properties</h2>
      {tenant.addresses.length === 0 ? <p>Not linked to any property.</p> : null}
      <ul className="plain-list people-list">
        {tenant.addresses.map((a) => (
          <li key={a.uuid} className="button-row">
            <span>{addressLabel(a)}</span>
            <Button
              variant="danger"
              isDisabled={action.busy}
              aria-label={`Unlink ${addressLabel(a)}`}
              onPress={() =>
                ask({
                  title: 'Unlink this property?',
                  body: (
                    <p>
                      {tenant.name} will no longer be linked to {addressLabel(a)}. Their past jobs there are kept.
                    </p>
                  ),
                  confirmLabel: 'Unlink',
                  cancelLabel: 'Keep it linked',
                  danger: true,
                  onConfirm: () =>
                    void action.run(async () => {
                      await api.DELETE('/api/tenants/{uuid}/addresses/{address_uuid}', { params: { path: { uuid: tenant.uuid, address_uuid: a.uuid } } });
                      onChanged(`Unlinked from ${addressLabel(a)}.`);
                    }),
                })
              }
            >
              Unlink
            </Button>
          </li>
        ))}
      </ul>
      <Form className="form" aria-label="Link a property" onSubmit={link}>
        <PropertyPicker key={pickerKey} onChange={setProperty} problem={fieldProblem} />
        {action.problem && !fieldProblem ? <ProblemMessage problem={action.problem} /> : null}
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Link property
        </Button>
      </Form>
      {dialog}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Properties (addresses)

const ADDRESS_FIELDS = ['line1', 'line2', 'town', 'county', 'postcode', 'branch_uuid'];

/** /addresses/new and /addresses/{uuid}/edit: a property's address and branch. */
export function AddressFormPage() {
  const { uuid } = useParams();
  const [notice, setNotice] = useSavedNotice();
  const address = useLoad(['addresses', uuid ?? 'new'], async () =>
    uuid ? ((await api.GET('/api/addresses/{uuid}', { params: { path: { uuid } } })).data!.data as Address) : ({} as Partial<Address>),
  );
  const branches = useBranches();
  return (
    <>
      <PageTitle>{uuid ? 'Edit property' : 'New property'}</PageTitle>
      <p>
        <Link to="/addresses">Back to addresses</Link>
      </p>
      <Notice text={notice} />
      {/* The form mounts once its branches are there: a select's default value needs its options,
          and mounting it again when they arrived would wipe what was typed meanwhile. */}
      <Loaded load={address}>
        {(a) => (
          <Loaded load={branches}>
            {(bs) => (
              <AddressForm
                key={a.updated_at ?? 'new'}
                address={a}
                branches={bs}
                onSaved={(text) => {
                  setNotice(text);
                  address.reload();
                }}
              />
            )}
          </Loaded>
        )}
      </Loaded>
    </>
  );
}

/**
 * Sets a property's HMO flag (PUT /api/compliance/properties/{uuid}/hmo, docs/compliance.md
 * "HMO"): set, the property gets the agency's HMO-only compliance items (HMO fire risk assessment
 * and HMO licence); cleared, its items stay. Answers the notice's words.
 */
async function saveHmo(uuid: string, hmo: boolean): Promise<string> {
  const { data } = await api.PUT('/api/compliance/properties/{uuid}/hmo', { params: { path: { uuid } }, body: { hmo } });
  return data!.data.is_hmo ? `Marked as an HMO; the property has ${data!.data.items.length} compliance items.` : 'No longer marked as an HMO.';
}

/**
 * The property form. Its HMO box (shown to callers with api.compliance.manage, the key of the
 * HMO flag's API) is saved after the address, by saveHmo, and only when it changed.
 */
function AddressForm({ address, branches, onSaved }: { address: Partial<Address>; branches: Branch[]; onSaved: (notice: string) => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const canHmo = useSession().permissions.has('api.compliance.manage');
  const { errors, other } = splitProblem(action.problem, ADDRESS_FIELDS);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = reader(e.currentTarget);
    const body = { line1: v('line1') ?? '', line2: v('line2'), town: v('town') ?? '', county: v('county'), postcode: v('postcode') ?? '', branch_uuid: v('branch_uuid') };
    const hmo = canHmo && v('is_hmo') !== null;
    const hmoChanged = canHmo && hmo !== (address.is_hmo ?? false);
    void action.run(async () => {
      if (address.uuid) {
        await api.PUT('/api/addresses/{uuid}', { params: { path: { uuid: address.uuid } }, body: body });
        onSaved(hmoChanged ? `Changes saved. ${await saveHmo(address.uuid, hmo)}` : 'Changes saved.');
        return;
      }
      const { data } = await api.POST('/api/addresses', { body: body });
      const created = data!.data as Address;
      const saved = hmoChanged ? `${addressLabel(created)} created. ${await saveHmo(created.uuid, hmo)}` : `${addressLabel(created)} created.`;
      navigate(`/addresses/${created.uuid}/edit`, { state: { saved } });
    });
  };
  return (
    <Form className="form" aria-label={address.uuid ? 'Edit property' : 'New property'} onSubmit={onSubmit} validationErrors={errors}>
      <Field name="line1" label="Address line 1" isRequired maxLength={200} defaultValue={address.line1 ?? ''} description="Such as 12 Hyde Park Road." />
      <Field name="line2" label="Address line 2" maxLength={200} defaultValue={address.line2 ?? ''} description="A flat or building, such as Flat 2." />
      <Field name="town" label="Town" isRequired maxLength={100} defaultValue={address.town ?? ''} />
      <Field name="county" label="County" maxLength={100} defaultValue={address.county ?? ''} />
      <Field name="postcode" label="Postcode" isRequired maxLength={10} defaultValue={address.postcode ?? ''} description="Such as LS6 3HN." />
      <SelectField id="address-branch" name="branch_uuid" label="Branch" defaultValue={address.branch_uuid ?? ''} error={errors.branch_uuid} hint="The branch that looks after the property.">
        <BranchOptions branches={branches} empty="No branch" />
      </SelectField>
      {canHmo ? (
        <div className="field">
          <label className="checkbox-native">
            <input type="checkbox" name="is_hmo" defaultChecked={address.is_hmo ?? false} aria-describedby="address-hmo-hint" /> House in multiple occupation (HMO)
          </label>
          <p id="address-hmo-hint" className="hint">
            An HMO needs a fire risk assessment and a licence: ticked, those items are added to the property&apos;s compliance register. Unticked later, they stay.
          </p>
        </div>
      ) : null}
      {other ? <ProblemMessage problem={other} /> : null}
      <Button type="submit" isDisabled={action.busy}>
        {address.uuid ? 'Save changes' : 'Create property'}
      </Button>
    </Form>
  );
}

// ---------------------------------------------------------------------------------------------
// Users

const USER_FIELDS = ['name', 'email', 'role', 'branch_uuid'];

/** /users/new (an invitation by e-mail) and /users/{uuid}/edit (name, e-mail, role, branch, status). */
export function UserFormPage() {
  const { uuid } = useParams();
  const [notice, setNotice] = useSavedNotice();
  const user = useLoad(['users', uuid ?? 'new'], async () =>
    uuid ? ((await api.GET('/api/users/{uuid}', { params: { path: { uuid } } })).data!.data as User) : ({} as Partial<User>),
  );
  const branches = useBranches();
  const roles = useLoad(
    ['roles', 'first', 100],
    async () => (await api.GET('/api/admin/roles', { params: { query: { limit: 100 } } })).data!.data as Role[],
  );
  return (
    <>
      <PageTitle>{uuid ? 'Edit user' : 'Invite a user'}</PageTitle>
      <p>
        <Link to="/users">Back to users</Link>
      </p>
      <Notice text={notice} />
      {/* Mounted once the branches and roles are there (see AddressFormPage). */}
      <Loaded load={user}>
        {(u) => (
          <Loaded load={branches}>
            {(bs) => (
              <Loaded load={roles}>
                {(rs) => (
                  <UserForm
                    key={u.updated_at ?? 'new'}
                    user={u}
                    branches={bs}
                    roles={rs}
                    onSaved={(text) => {
                      setNotice(text);
                      user.reload();
                    }}
                  />
                )}
              </Loaded>
            )}
          </Loaded>
        )}
      </Loaded>
    </>
  );
}

function UserForm({ user, branches, roles, onSaved }: { user: Partial<User>; branches: Branch[]; roles: Role[]; onSaved: (notice: string) => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const { errors, other } = splitProblem(action.problem, USER_FIELDS, { role_id: 'role' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = reader(e.currentTarget);
    const name = v('name') ?? '';
    const email = v('email') ?? '';
    const role = v('role');
    const branch = v('branch_uuid');
    void action.run(async () => {
      if (!user.uuid) {
        const { data } = await api.POST('/api/users', { body: { invite: true, name, email, ...(role ? { role } : {}), ...(branch ? { branch_uuid: branch } : {}) } });
        const created = data!.data as User;
        navigate(`/users/${created.uuid}/edit`, { state: { saved: `Invitation sent to ${created.email}.` } });
        return;
      }
      // Only what changed is sent: one's own role may not be sent, even unchanged.
      const body: Record<string, unknown> = {};
      if (name !== user.name) body.name = name;
      if (email !== user.email) body.email = email;
      if (role && role !== user.role_code) body.role = role;
      if ((branch ?? null) !== (user.branch_uuid ?? null)) body.branch_uuid = branch;
      if (Object.keys(body).length > 0) await api.PUT('/api/users/{uuid}', { params: { path: { uuid: user.uuid } }, body: body });
      onSaved(Object.keys(body).length > 0 ? 'Changes saved.' : 'Nothing changed.');
    });
  };
  const path = { params: { path: { uuid: user.uuid ?? '' } }, body: {} };
  const roleOptions = roles.some((r) => r.code === user.role_code) || !user.role_code ? roles : [...roles, { id: 0, code: user.role_code, name: user.role ?? user.role_code, level: 0 }];
  return (
    <>
      <Form className="form" aria-label={user.uuid ? `Edit ${user.name}` : 'Invite a user'} onSubmit={onSubmit} validationErrors={errors}>
        <Field name="name" label="Name" isRequired maxLength={200} defaultValue={user.name ?? ''} />
        <Field
          name="email"
          label="E-mail address"
          type="email"
          isRequired
          maxLength={254}
          defaultValue={user.email ?? ''}
          description={user.uuid ? undefined : 'They get an e-mail with a link, valid 7 days, to choose their password.'}
        />
        <SelectField id="user-role" name="role" label="Role" defaultValue={user.role_code ?? 'agent'} error={errors.role} required>
          {roleOptions.map((r) => (
            <option key={r.code} value={r.code}>
              {r.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="user-branch" name="branch_uuid" label="Branch" defaultValue={user.branch_uuid ?? ''} error={errors.branch_uuid} hint="Agents need a branch.">
          <BranchOptions branches={branches} empty="No branch" />
        </SelectField>
        {other ? <ProblemMessage problem={other} /> : null}
        <Button type="submit" isDisabled={action.busy}>
          {user.uuid ? 'Save changes' : 'Send invitation'}
        </Button>
      </Form>
      {user.uuid ? (
        <section aria-labelledby="user-status">
          <h2 id="user-status">Status: {user.status}</h2>
          <div className="button-row">
            {user.status === 'invited' ? (
              <Button
                variant="secondary"
                isDisabled={action.busy}
                onPress={() =>
                  void action.run(async () => {
                    await api.POST('/api/users/{uuid}/invite', path);
                    onSaved(`A new invitation was sent to ${user.email}; the earlier link no longer works.`);
                  })
                }
              >
                Send the invitation again
              </Button>
            ) : null}
            {user.status === 'disabled' ? (
              <Button
                variant="secondary"
                isDisabled={action.busy}
                onPress={() =>
                  void action.run(async () => {
                    await api.POST('/api/users/{uuid}/enable', path);
                    onSaved(`${user.name} can sign in again.`);
                  })
                }
              >
                Enable user
              </Button>
            ) : (
              <Button
                variant="danger"
                isDisabled={action.busy}
                onPress={() =>
                  ask({
                    title: `Disable ${user.name}?`,
                    body: <p>They are signed out everywhere at once and cannot sign in until the account is enabled again.</p>,
                    confirmLabel: 'Disable user',
                    cancelLabel: 'Keep the account',
                    danger: true,
                    onConfirm: () =>
                      void action.run(async () => {
                        await api.POST('/api/users/{uuid}/disable', path);
                        onSaved(`${user.name} is disabled.`);
                      }),
                  })
                }
              >
                Disable user
              </Button>
            )}
          </div>
        </section>
      ) : null}
      {dialog}
    </>
  );
}
