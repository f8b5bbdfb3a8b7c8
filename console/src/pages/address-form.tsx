/**
 * /addresses/new and /addresses/{uuid}/edit (docs/console.md "Creating and editing"): a property's
 * address and branch (POST/PUT /api/addresses) and its HMO flag (PUT
 * /api/compliance/properties/{uuid}/hmo).
 */
import { type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api.ts';
import type { Address, Branch } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { useSession } from '../session.tsx';
import { addressLabel } from './property-picker.tsx';
import { BranchOptions, Loaded, Notice, reader, SelectField, splitProblem, useBranches, useSavedNotice } from './people-forms.tsx';
import '../people-forms.css';

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
