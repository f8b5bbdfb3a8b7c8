/**
 * Reporting a repair (tenant) or creating a job (staff): title, description, access notes and an
 * optional photo, in one short form that works on a phone (the photo input opens the camera).
 * Staff first pick the property (typeahead on GET /api/addresses?q=, property-picker.tsx); the
 * tenant defaults from it (GET /api/tenants?address_uuid=), the branch from the property (agency-wide
 * staff may change it, GET /api/admin/branches), and they choose the trade
 * (GET /api/contractors/trades) and job type (GET /api/jobs/types).
 * POST /api/jobs/manage with an Idempotency-Key (a retry after a dropped connection does not make
 * a second job), then POST /api/jobs/{uuid}/photos; access notes go into the description.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api, idempotencyKey } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { branchChoices, composeDescription, tenantChoice } from '../logic/report.ts';
import { useSession } from '../session.tsx';
import type { Address } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { PropertyPicker } from './property-picker.tsx';

/** Uploads one photo to a job (multipart field `file`; the CSRF token goes in the header, added by the client). */
export async function uploadPhoto(jobUuid: string, file: File): Promise<void> {
  await api.POST('/api/jobs/{uuid}/photos', { params: { path: { uuid: jobUuid } }, body: { file } });
}

/** The report-a-repair page. */
export function ReportRepair() {
  const session = useSession();
  const navigate = useNavigate();
  const key = useRef(idempotencyKey());
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const { problem, busy, run, setProblem } = useAction();
  const tenant = session.party === 'tenant';
  const staff = session.party === 'staff';
  const [property, setProperty] = useState<Address | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const photo = form.get('photo');
    if (staff && !property) {
      setProblem({ message: 'Choose the property first: type its postcode or address and pick it from the list.', field: 'address_uuid', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const text = (name: string) => String(form.get(name) ?? '');
    const staffFields = staff
      ? {
          address_uuid: property!.uuid,
          ...(text('tenant_uuid') ? { tenant_uuid: text('tenant_uuid') } : {}),
          ...(text('branch_uuid') ? { branch_uuid: text('branch_uuid') } : {}),
          ...(text('trade_id') ? { trade_id: Number(text('trade_id')) } : {}),
          ...(text('job_type_id') ? { job_type_id: Number(text('job_type_id')) } : {}),
        }
      : {};
    void run(async () => {
      const { data } = await api.POST('/api/jobs/manage', {
        params: { header: { 'idempotency-key': key.current } },
        body: {
          title: text('title'),
          priority: Number(form.get('priority') ?? 3),
          description: composeDescription(text('description'), text('access')),
          ...staffFields,
        },
      });
      const job = data!.data;
      if (photo instanceof File && photo.size > 0) {
        try {
          await uploadPhoto(job.uuid, photo);
        } catch (err) {
          setPhotoProblem(`The repair was reported, but the photo was not uploaded: ${(err as Error).message}`);
          navigate(`/jobs/${job.uuid}`, { state: { flash: 'Repair reported; the photo could not be uploaded, add it below.' } });
          return;
        }
      }
      navigate(`/jobs/${job.uuid}`, { state: { flash: tenant ? 'Thank you: your repair has been reported.' : 'Job created.' } });
    });
  };
  return (
    <>
      <PageTitle>{tenant ? 'Report a repair' : 'New job'}</PageTitle>
      <Form className="form" onSubmit={onSubmit} validationErrors={problem?.field ? { [problem.field]: problem.message } : {}}>
        {staff ? <StaffJobFields property={property} onProperty={setProperty} problemField={problem?.field ?? null} problemMessage={problem?.message ?? null} /> : null}
        <Field name="title" label="What needs repairing?" isRequired maxLength={200} description="A short summary, e.g. “Leak under the kitchen sink”." />
        <Field name="description" label="Details" multiline maxLength={4000} description="What happened, since when, anything already tried." />
        <Field name="access" label="Access notes" multiline maxLength={800} description="When someone is home, keys, pets, parking." />
        <div className="field">
          <label htmlFor="priority">How urgent is it?</label>
          <select id="priority" name="priority" defaultValue="3">
            {Object.entries(PRIORITIES).map(([n, label]) => (
              <option key={n} value={n}>
                {label}
                {n === '1' ? ' (danger to people or property)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="photo">Photo (optional)</label>
          <input id="photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp,image/heic" capture="environment" aria-describedby="photo-hint" />
          <p id="photo-hint" className="hint">
            JPEG, PNG, WebP or HEIC, up to 15 MB.
          </p>
          {photoProblem ? <p className="field-error">{photoProblem}</p> : null}
        </div>
        {problem?.field !== 'address_uuid' ? <ProblemMessage problem={problem} /> : null}
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Sending…' : tenant ? 'Report repair' : 'Create job'}
        </Button>
      </Form>
    </>
  );
}

/**
 * The staff-only part of the job form: property, its tenant (chosen when it has one; with several
 * the user picks who reported it, tenantChoice), branch (the property's; a select, each open
 * branch once, branchChoices, for staff who may list branches), trade and job type.
 */
function StaffJobFields(props: { property: Address | null; onProperty: (a: Address | null) => void; problemField: string | null; problemMessage: string | null }) {
  const session = useSession();
  const { property } = props;
  const tenants = useLoad(async () => {
    if (!property) return [];
    return (await api.GET('/api/tenants', { params: { query: { address_uuid: property.uuid, limit: 50 } } })).data!.data;
  }, [property?.uuid]);
  const [tenantUuid, setTenantUuid] = useState('');
  // One tenant: chosen for the user; a shared house: nobody until the user picks who reported it.
  const tenantPick = tenantChoice(tenants.data ?? []);
  useEffect(() => setTenantUuid(tenantChoice(tenants.data ?? []).selected), [tenants.data]);
  const mayListBranches = session.permissions.has('api.admin.branches.view') && session.me?.role !== 'agent';
  const branches = useLoad(async () => (mayListBranches ? (await api.GET('/api/admin/branches', { params: { query: { limit: 100 } } })).data!.data : []), [mayListBranches]);
  const [branchUuid, setBranchUuid] = useState('');
  useEffect(() => setBranchUuid(property?.branch_uuid ?? ''), [property?.uuid, property?.branch_uuid]);
  const trades = useLoad(['trades'], async () => (await api.GET('/api/contractors/trades')).data!.data);
  const types = useLoad(['jobs', 'types'], async () => (await api.GET('/api/jobs/types')).data!.data);
  const fieldError = (name: string) => (props.problemField === name ? <p className="field-error">{props.problemMessage}</p> : null);
  const branchPick = branchChoices(branches.data ?? [], property?.branch_name ?? null);
  const openBranches = branchPick.options;
  return (
    <fieldset className="job-place">
      <legend>Where and what</legend>
      <PropertyPicker onChange={props.onProperty} problem={props.problemField === 'address_uuid' ? props.problemMessage : null} />
      <div className="field">
        <label htmlFor="tenant">Tenant</label>
        <select id="tenant" name="tenant_uuid" value={tenantUuid} onChange={(e) => setTenantUuid(e.target.value)} disabled={!property} aria-describedby="tenant-hint">
          <option value="">{property ? tenantPick.empty : 'Choose the property first'}</option>
          {(tenants.data ?? []).map((t) => (
            <option key={t.uuid} value={t.uuid}>
              {t.name}
              {t.phone ?? t.mobile ? ` (${t.phone ?? t.mobile})` : ''}
            </option>
          ))}
        </select>
        <p id="tenant-hint" className="hint">
          {property && tenants.data ? tenantPick.hint : 'Filled in from the property.'}
        </p>
        {fieldError('tenant_uuid')}
      </div>
      {mayListBranches && openBranches.length > 0 ? (
        <div className="field">
          <label htmlFor="branch">Branch</label>
          <select id="branch" name="branch_uuid" value={branchUuid} onChange={(e) => setBranchUuid(e.target.value)} aria-describedby="branch-hint">
            <option value="">{branchPick.empty}</option>
            {openBranches.map((b) => (
              <option key={b.uuid} value={b.uuid}>
                {b.name}
              </option>
            ))}
          </select>
          <p id="branch-hint" className="hint">
            {property?.branch_name ? `The property belongs to ${property.branch_name}.` : property ? 'The property has no branch: choose one.' : 'Filled in from the property.'}
          </p>
          {fieldError('branch_uuid')}
        </div>
      ) : (
        <p className="hint">Branch: {property?.branch_name ?? 'yours'}</p>
      )}
      <div className="field">
        <label htmlFor="trade">Trade</label>
        <select id="trade" name="trade_id" defaultValue="">
          <option value="">Not known yet (matched as general maintenance)</option>
          {(trades.data ?? [])
            .filter((t) => !t.retired_at)
            .map((t) => (
              <option key={t.ID} value={t.ID}>
                {t.name}
              </option>
            ))}
        </select>
        {fieldError('trade_id')}
      </div>
      <div className="field">
        <label htmlFor="job-type">Job type</label>
        <select id="job-type" name="job_type_id" defaultValue="">
          <option value="">Reactive repair</option>
          {(types.data ?? [])
            .filter((t) => t.ID !== 1)
            .map((t) => (
              <option key={t.ID} value={t.ID}>
                {t.name}
              </option>
            ))}
        </select>
        {fieldError('job_type_id')}
      </div>
    </fieldset>
  );
}
