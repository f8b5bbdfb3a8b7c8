/**
 * /tenants/new and /tenants/{uuid}/edit (docs/console.md "Creating and editing"): the tenant's
 * details (POST/PUT /api/tenants) and the properties they live at (linking and unlinking, the
 * unlinking asked about first).
 */
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api.ts';
import type { Address, Tenant } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';
import { InviteToApp, Loaded, Notice, reader, splitProblem, useSavedNotice } from './people-forms.tsx';
import { TenantOffice } from './landlord-extras.tsx';
import '../people-forms.css';

type TenantDetail = Tenant & { addresses: Address[] };

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
            {t.uuid ? <InviteToApp kind="tenant" uuid={t.uuid} hasLogin={t.has_login} /> : null}
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
            {t.uuid ? <TenantOffice uuid={t.uuid} name={t.name ?? 'this tenant'} /> : null}
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
