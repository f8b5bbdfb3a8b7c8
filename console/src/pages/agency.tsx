/**
 * The agency pages (docs/console.md "Agencies and agency settings", docs/onboarding.md):
 * - SysOps: the agencies list (`GET /api/agencies`, searchable, by status), "New agency"
 *   (`POST /api/agencies` with every profile field, its first branch and administrator), an
 *   agency's page (`GET /api/agencies/{uuid}`) with its profile edited in place
 *   (`PUT /api/agencies/{uuid}`), suspended with a reason (`POST .../suspend`) and reactivated
 *   (`POST .../reactivate`).
 * - An agency administrator: Agency settings (`GET`/`PUT /api/agencies/current`): names,
 *   registered address, company and VAT numbers, contacts, bank-holiday region, office hours,
 *   the landlord approval limit (pounds, sent as pence), invoice terms (days) and the postcode
 *   look-up; and the agency's export as a ZIP (`GET /api/agencies/current/export`).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { poundsToPence } from '../logic/money.ts';
import type { Problem } from '../logic/errors.ts';
import type { RequestBody } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, formatDate, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Loaded, Notice, SelectField, splitProblem, useSavedNotice } from './people-forms.tsx';
import { useSession } from '../session.tsx';
import { SsoSettingsSection } from './sso.tsx';
import { RetentionSection, TwoFactorPolicySection } from './security-settings.tsx';
import { LandlordApprovalSettings } from './office-more.tsx';

type AgencyProfile = NonNullable<Awaited<ReturnType<typeof loadAgency>>>;
type ProfileInput = RequestBody<'/api/agencies/{uuid}', 'put'>;
type DayKey = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** One agency (SysOps). */
async function loadAgency(uuid: string) {
  return (await api.GET('/api/agencies/{uuid}', { params: { path: { uuid } } })).data!.data;
}

const DAYS: Array<[DayKey, string]> = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

const REGIONS = { 'england-and-wales': 'England and Wales', scotland: 'Scotland', 'northern-ireland': 'Northern Ireland' } as const;
type Region = keyof typeof REGIONS;

/** True when `value` names one of REGIONS. */
function isRegion(value: string): value is Region {
  return Object.hasOwn(REGIONS, value);
}

/** The form's field names, for a refused field shown beside its input. */
const PROFILE_FIELDS = [
  'name',
  'legal_name',
  'company_number',
  'vat_number',
  'contact_email',
  'contact_phone',
  'bank_holiday_region',
  'default_approval_limit_pence',
  'invoice_terms_days',
  'line1',
  'town',
  'postcode',
  'branch_name',
  'admin_name',
  'admin_email',
];

/**
 * Reads the profile fields of the form (every field of PUT /api/agencies/{uuid}): blanks clear an
 * optional field (null); the registered address is sent when its first line, town or postcode is
 * filled, else null; the approval limit typed in pounds is sent as pence.
 * @returns the body, or a problem naming the field typed wrongly
 */
export function readProfile(form: HTMLFormElement): { body: ProfileInput & { name: string } } | { problem: Problem } {
  const f = new FormData(form);
  const text = (n: string) => {
    const v = String(f.get(n) ?? '').trim();
    return v === '' ? null : v;
  };
  const wrong = (field: string, message: string) => ({ problem: { message, field, retry: false, retryAfterSeconds: null, status: 400 } satisfies Problem });
  const limitText = text('default_approval_limit');
  const limit = limitText === null ? null : poundsToPence(limitText);
  if (limitText !== null && limit === null) return wrong('default_approval_limit_pence', 'Type the approval limit in pounds, e.g. 250 or 250.00.');
  const termsText = text('invoice_terms_days') ?? '30';
  if (!/^\d{1,3}$/.test(termsText) || Number(termsText) > 365) return wrong('invoice_terms_days', 'Invoice terms are a number of days from 0 to 365.');
  const office: Record<DayKey, { open: string; close: string } | null> = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
  for (const [d] of DAYS) office[d] = f.get(`${d}_open_day`) ? { open: text(`${d}_open`) ?? '09:00', close: text(`${d}_close`) ?? '17:30' } : null;
  const line1 = text('line1');
  const town = text('town');
  const postcode = text('postcode');
  const region = String(f.get('bank_holiday_region') ?? 'england-and-wales');
  return {
    body: {
      name: text('name') ?? '',
      legal_name: text('legal_name'),
      registered_address: line1 || town || postcode ? { line1: line1 ?? '', line2: text('line2'), town: town ?? '', postcode: postcode ?? '' } : null,
      company_number: text('company_number')?.toUpperCase().replace(/\s+/g, '') ?? null,
      vat_number: text('vat_number')?.toUpperCase() ?? null,
      contact_email: text('contact_email'),
      contact_phone: text('contact_phone'),
      ...(isRegion(region) ? { bank_holiday_region: region } : {}),
      office_hours: office,
      default_approval_limit_pence: limit,
      invoice_terms_days: Number(termsText),
      postcode_lookup: f.get('postcode_lookup') === 'on',
    },
  };
}

/** The profile's fields, filled from `agency` (or blank for a new one): every field the API takes. */
function ProfileFields({ agency, errors }: { agency: AgencyProfile | null; errors: Record<string, string> }) {
  const a = agency;
  const hours = a?.office_hours;
  const limit = a?.default_approval_limit_pence;
  return (
    <>
      <fieldset className="field-set">
        <legend>Names and registration</legend>
        <Field name="name" label="Trading name" isRequired maxLength={200} defaultValue={a?.name ?? ''} description="Shown on documents and messages." />
        <Field name="legal_name" label="Legal name" maxLength={200} defaultValue={a?.legal_name ?? ''} description="As registered at Companies House, e.g. Acme Lettings Ltd." />
        <Field name="company_number" label="Company number" maxLength={8} defaultValue={a?.company_number ?? ''} description="8 digits, or 2 letters and 6 digits (SC123456)." />
        <Field name="vat_number" label="VAT registration number" maxLength={20} defaultValue={a?.vat_number ?? ''} description="Leave empty when the agency is not VAT-registered. E.g. GB123456789." />
      </fieldset>
      <fieldset className="field-set">
        <legend>Registered address</legend>
        <Field name="line1" label="Address line 1" maxLength={200} defaultValue={a?.registered_address?.line1 ?? ''} />
        <Field name="line2" label="Address line 2" maxLength={200} defaultValue={a?.registered_address?.line2 ?? ''} />
        <Field name="town" label="Town" maxLength={100} defaultValue={a?.registered_address?.town ?? ''} />
        <Field name="postcode" label="Postcode" maxLength={10} defaultValue={a?.registered_address?.postcode ?? ''} />
      </fieldset>
      <fieldset className="field-set">
        <legend>Contact</legend>
        <Field name="contact_email" label="Contact e-mail" type="email" maxLength={254} defaultValue={a?.contact_email ?? ''} />
        <Field name="contact_phone" label="Contact phone" maxLength={30} defaultValue={a?.contact_phone ?? ''} />
      </fieldset>
      <fieldset className="field-set">
        <legend>Working days</legend>
        <SelectField id="bank_holiday_region" name="bank_holiday_region" label="Bank holidays of" defaultValue={a?.bank_holiday_region ?? 'england-and-wales'} error={errors.bank_holiday_region} hint="SLA working days skip these bank holidays.">
          {Object.entries(REGIONS).map(([k, v]) => (
            <option key={k} value={k}>
              {v}
            </option>
          ))}
        </SelectField>
        <table className="office-hours">
          <caption>Office hours (UK time)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Open</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {DAYS.map(([d, label]) => {
              const day = hours ? hours[d] : ['sat', 'sun'].includes(d) ? null : { open: '09:00', close: '17:30' };
              return (
                <tr key={d}>
                  <th scope="row">{label}</th>
                  <td>
                    <input type="checkbox" name={`${d}_open_day`} id={`${d}_open_day`} defaultChecked={day !== null} aria-label={`Open on ${label}`} />
                  </td>
                  <td>
                    <input type="time" name={`${d}_open`} defaultValue={day?.open ?? '09:00'} aria-label={`${label} opens at`} />
                  </td>
                  <td>
                    <input type="time" name={`${d}_close`} defaultValue={day?.close ?? '17:30'} aria-label={`${label} closes at`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </fieldset>
      <fieldset className="field-set">
        <legend>Money</legend>
        <Field
          name="default_approval_limit"
          label="Landlord approval limit (£)"
          maxLength={12}
          defaultValue={limit === null || limit === undefined ? '' : (limit / 100).toFixed(2)}
          description="Work over this needs the landlord's approval, unless the property or its landlord sets its own limit. Leave empty for no limit."
        />
        {errors.default_approval_limit_pence ? <p className="field-error">{errors.default_approval_limit_pence}</p> : null}
        <Field name="invoice_terms_days" label="Invoice terms (days)" maxLength={3} defaultValue={String(a?.invoice_terms_days ?? 30)} description="An invoice is due this many days after it is issued." />
        {errors.invoice_terms_days ? <p className="field-error">{errors.invoice_terms_days}</p> : null}
        <div className="field">
          <label>
            <input type="checkbox" name="postcode_lookup" defaultChecked={a?.postcode_lookup ?? false} /> Check property postcodes at postcodes.io (an unknown postcode is refused, the town filled in)
          </label>
        </div>
      </fieldset>
    </>
  );
}

/** The profile as read-only facts (the agency page's summary). */
function ProfileSummary({ agency }: { agency: AgencyProfile }) {
  const a = agency;
  const address = a.registered_address ? [a.registered_address.line1, a.registered_address.line2, a.registered_address.town, a.registered_address.postcode].filter(Boolean).join(', ') : 'Not given';
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>{a.status === 'active' ? 'Active' : `Suspended since ${formatDate(a.suspended_at)}${a.suspended_reason ? `: ${a.suspended_reason}` : ''}`}</dd>
      <dt>Legal name</dt>
      <dd>{a.legal_name ?? 'Not given'}</dd>
      <dt>Registered address</dt>
      <dd>{address}</dd>
      <dt>Company number</dt>
      <dd>{a.company_number ?? 'Not given'}</dd>
      <dt>VAT registration</dt>
      <dd>{a.vat_number ?? 'Not VAT-registered'}</dd>
      <dt>Bank holidays of</dt>
      <dd>{isRegion(a.bank_holiday_region) ? REGIONS[a.bank_holiday_region] : a.bank_holiday_region}</dd>
      <dt>Approval limit</dt>
      <dd>{a.default_approval_limit_pence === null ? 'None' : formatPence(a.default_approval_limit_pence)}</dd>
      <dt>Created</dt>
      <dd>{formatDate(a.created_at)}</dd>
    </dl>
  );
}

/** SysOps: the agencies, searchable and by status, each opening its page. */
export function AgenciesPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status');
  const list = useLoad(['agencies', 'list', { q, status }], async () =>
    (
      await api.GET('/api/agencies', {
        params: { query: { limit: 100, ...(q ? { q } : {}), ...(status === 'active' || status === 'suspended' ? { status } : {}) } },
      })
    ).data!,
  );
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const next = new URLSearchParams();
    const text = String(f.get('q') ?? '').trim();
    const st = String(f.get('status') ?? '');
    if (text) next.set('q', text);
    if (st) next.set('status', st);
    setParams(next);
  };
  return (
    <>
      <PageTitle
        actions={
          <Link to="/agencies/new" className="btn btn-primary">
            New agency
          </Link>
        }
      >
        Agencies
      </PageTitle>
      <form className="filters" onSubmit={onSearch} role="search">
        <div className="field">
          <label htmlFor="agency-q">Name</label>
          <input id="agency-q" name="q" type="search" defaultValue={q} />
        </div>
        <div className="field">
          <label htmlFor="agency-status">Status</label>
          <select id="agency-status" name="status" defaultValue={status ?? ''}>
            <option value="">Any</option>
            <option value="active">Active</option>
            <option value="suspended">Suspended</option>
          </select>
        </div>
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </form>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data && list.data.data.length === 0 ? <p>{q || status ? 'No agency matches.' : 'No agencies yet. Create the first one: it gets a first branch and its administrator an invitation.'}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <table className="agencies">
          <caption>{list.data.data.length === 1 ? '1 agency' : `${list.data.data.length} agencies`}</caption>
          <thead>
            <tr>
              <th scope="col">Agency</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((a) => (
              <tr key={a.uuid}>
                <td>
                  <Link to={`/agencies/${a.uuid}`}>{a.name}</Link>
                </td>
                <td>{a.status === 'active' ? 'Active' : 'Suspended'}</td>
                <td>{formatDate(a.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

/** SysOps: a new agency with every profile field, its first branch and its first administrator. */
export function AgencyNewPage() {
  const action = useAction();
  const navigate = useNavigate();
  const { errors, other } = splitProblem(action.problem, PROFILE_FIELDS, { 'admin.name': 'admin_name', 'admin.email': 'admin_email', 'registered_address.line1': 'line1', 'registered_address.town': 'town', 'registered_address.postcode': 'postcode' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const read = readProfile(form);
    if ('problem' in read) return action.setProblem(read.problem);
    const f = new FormData(form);
    const text = (n: string) => String(f.get(n) ?? '').trim();
    void action.run(async () => {
      const { data } = await api.POST('/api/agencies', {
        body: { ...read.body, ...(text('branch_name') ? { branch_name: text('branch_name') } : {}), admin: { name: text('admin_name'), email: text('admin_email') } },
      });
      const created = data!.data;
      const saved = `${created.agency.name} created; ${created.invitation_sent ? 'an invitation was e-mailed to' : 'the invitation could not be sent to'} ${created.admin.email}.`;
      navigate(`/agencies/${created.agency.uuid}`, { state: { saved } });
    });
  };
  return (
    <>
      <PageTitle>New agency</PageTitle>
      <p>
        <Link to="/agencies">All agencies</Link>
      </p>
      <form className="form" onSubmit={onSubmit}>
        <ProfileFields agency={null} errors={errors} />
        <fieldset className="field-set">
          <legend>First branch and administrator</legend>
          <Field name="branch_name" label="First branch" maxLength={200} description="Default: Head office." />
          <Field name="admin_name" label="Administrator's name" isRequired maxLength={200} />
          <Field name="admin_email" label="Administrator's e-mail" type="email" isRequired maxLength={254} description="They get an invitation to set their password." />
        </fieldset>
        <FieldErrors errors={errors} />
        <ProblemMessage problem={other} />
        <Button type="submit" isDisabled={action.busy}>
          Create agency
        </Button>
      </form>
    </>
  );
}

/** The refused field's message, above the button (the text fields are uncontrolled inputs). */
function FieldErrors({ errors }: { errors: Record<string, string> }) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return (
    <p className="field-error" role="alert">
      {entries.map(([, m]) => m).join(' ')}
    </p>
  );
}

/** SysOps: one agency, its profile edited in place, suspended (with a reason) or reactivated. */
export function AgencyPage() {
  const { uuid = '' } = useParams();
  const agency = useLoad(['agencies', uuid], () => loadAgency(uuid));
  const action = useAction();
  const [saved, setSaved] = useSavedNotice();
  const { ask, dialog } = useConfirm();
  const { errors, other } = splitProblem(action.problem, PROFILE_FIELDS, { 'registered_address.line1': 'line1', 'registered_address.town': 'town', 'registered_address.postcode': 'postcode' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const read = readProfile(e.currentTarget);
    if ('problem' in read) return action.setProblem(read.problem);
    void action.run(async () => {
      await api.PUT('/api/agencies/{uuid}', { params: { path: { uuid } }, body: read.body });
      setSaved('Saved.');
      agency.reload();
    });
  };
  const suspend = () =>
    ask({
      title: `Suspend ${agency.data?.name ?? 'this agency'}?`,
      body: <p>Its people cannot sign in, and its messages stop, until it is reactivated.</p>,
      text: { label: 'Reason (kept on the agency, shown to SysOps)' },
      confirmLabel: 'Suspend',
      cancelLabel: 'Cancel',
      danger: true,
      onConfirm: (reason) => {
        void action.run(async () => {
          await api.POST('/api/agencies/{uuid}/suspend', { params: { path: { uuid } }, body: reason.trim() ? { reason: reason.trim() } : {} });
          setSaved('Suspended: its people cannot sign in until it is reactivated.');
          agency.reload();
        });
      },
    });
  const reactivate = () =>
    void action.run(async () => {
      await api.POST('/api/agencies/{uuid}/reactivate', { params: { path: { uuid } } });
      setSaved('Reactivated.');
      agency.reload();
    });
  return (
    <>
      <PageTitle
        actions={
          agency.data ? (
            agency.data.status === 'active' ? (
              <Button variant="danger" onPress={suspend} isDisabled={action.busy}>
                Suspend
              </Button>
            ) : (
              <Button onPress={reactivate} isDisabled={action.busy}>
                Reactivate
              </Button>
            )
          ) : undefined
        }
      >
        {agency.data?.name ?? 'Agency'}
      </PageTitle>
      <p>
        <Link to="/agencies">All agencies</Link>
      </p>
      <Notice text={saved} />
      <Loaded load={agency}>
        {(a) => (
          <>
            <ProfileSummary agency={a} />
            <form key={a.updated_at} className="form" onSubmit={onSubmit}>
              <h2>Edit the profile</h2>
              <ProfileFields agency={a} errors={errors} />
              <FieldErrors errors={errors} />
              <ProblemMessage problem={other} />
              <Button type="submit" isDisabled={action.busy}>
                Save
              </Button>
            </form>
          </>
        )}
      </Loaded>
      {dialog}
    </>
  );
}

/** Saves `blob` as a file called `name` (a download the browser shows). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** An agency administrator: the agency's own settings, and its export. */
export function AgencySettingsPage() {
  const session = useSession();
  const agency = useLoad(['agencies', 'current'], async () => (await api.GET('/api/agencies/current')).data!.data);
  const action = useAction();
  const exporting = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const { errors, other } = splitProblem(action.problem, PROFILE_FIELDS, { 'registered_address.line1': 'line1', 'registered_address.town': 'town', 'registered_address.postcode': 'postcode' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const read = readProfile(e.currentTarget);
    if ('problem' in read) return action.setProblem(read.problem);
    setSaved(null);
    void action.run(async () => {
      await api.PUT('/api/agencies/current', { body: read.body });
      setSaved('Settings saved.');
      agency.reload();
    });
  };
  const exportZip = (files: boolean) =>
    void exporting.run(async () => {
      const { data } = await api.GET('/api/agencies/current/export', { params: { query: { files } } });
      saveBlob(data as Blob, `caretaker-export-${new Date().toISOString().slice(0, 10)}.zip`);
    });
  return (
    <>
      <PageTitle>Agency settings</PageTitle>
      <Notice text={saved} />
      <Loaded load={agency}>
        {(a) => (
          <form key={a.updated_at} className="form" onSubmit={onSubmit}>
            <ProfileFields agency={a} errors={errors} />
            <FieldErrors errors={errors} />
            <ProblemMessage problem={other} />
            <Button type="submit" isDisabled={action.busy}>
              Save settings
            </Button>
          </form>
        )}
      </Loaded>
      {session.permissions.has('api.sso.settings.manage') ? <SsoSettingsSection /> : null}
      {session.permissions.has('api.agencies.current.manage') ? <TwoFactorPolicySection /> : null}
      {session.permissions.has('api.tenants.erase.manage') ? <RetentionSection /> : null}
      {session.permissions.has('api.landlords.settings.manage') && session.permissions.has('api.landlords.view') ? <LandlordApprovalSettings /> : null}
      <section aria-labelledby="export">
        <h2 id="export">Export</h2>
        <p>Download the agency's data as a ZIP of CSV files: branches, users, properties, tenants, contractors, certificates, jobs, notes and invoices.</p>
        <ProblemMessage problem={exporting.problem} />
        <div className="actions">
          <Button variant="secondary" onPress={() => exportZip(false)} isDisabled={exporting.busy}>
            Export data
          </Button>
          <Button variant="secondary" onPress={() => exportZip(true)} isDisabled={exporting.busy}>
            Export with job files
          </Button>
        </div>
      </section>
    </>
  );
}
