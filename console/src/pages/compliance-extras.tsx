/**
 * The compliance writes and views beyond the register (docs/console.md "The agency's office:
 * compliance extras", docs/compliance.md "In the console"): a schedule's own page
 * (`/compliance/schedules/{uuid}`, GET /api/compliance/schedules/{uuid}); editing a certificate's
 * document, tenant's copy, EICR remedial works and EPC exemption (PUT
 * /api/compliance/items/{uuid}/certificates/{certificate_uuid}); adding an item type to a
 * selection of properties, a building or the portfolio (POST /api/compliance/items/bulk); and a
 * property's gas supply, storeys and rooms with a combustion appliance (PUT
 * /api/compliance/properties/{uuid}/profile), shown on the property page.
 */
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api.ts';
import { leadWords, londonToday, longDate, ruleWords } from '../logic/recurrence.ts';
import type { ComplianceItem, ComplianceType } from '../types.ts';
import { Button, formatLondonDate, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { ComplianceTypeSelect, Labelled, useFocusOnOpen } from './compliance-forms.tsx';
import { Loaded } from './people-forms.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';

/** How a copy reaches the tenant (the API's `tenant_copy_method`), in words. */
const SERVE_METHODS = { hand: 'By hand', post: 'By post', email: 'By e-mail', portal: 'Through the tenant portal' } as const;
type ServeMethod = keyof typeof SERVE_METHODS;

/** True when `v` is one of SERVE_METHODS. */
function isServeMethod(v: string): v is ServeMethod {
  return Object.hasOwn(SERVE_METHODS, v);
}

/**
 * A schedule's own page, `/compliance/schedules/{uuid}`: what the work is, how often, for which
 * properties, the contractor, the next five due dates with the day each job is raised, and the
 * latest twenty raised occurrences with their jobs (docs/compliance.md "Planned maintenance").
 */
export function SchedulePage() {
  const { uuid = '' } = useParams();
  const schedule = useLoad(['compliance', 'schedule', uuid], async () => (await api.GET('/api/compliance/schedules/{uuid}', { params: { path: { uuid } } })).data!.data);
  const title = schedule.data && !schedule.placeholder ? schedule.data.title : 'Schedule';
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p>
        <Link to="/compliance">Back to compliance</Link>
      </p>
      <Loaded load={schedule}>
        {(s) => (
          <>
            {s.retired ? (
              <p className="notice" role="status">
                This schedule was deleted: it raises no more jobs. The jobs it raised stay.
              </p>
            ) : null}
            <section aria-labelledby="schedule-details">
              <h2 id="schedule-details">Details</h2>
              <dl className="details">
                {s.description ? (
                  <>
                    <dt>What the work is</dt>
                    <dd>{s.description}</dd>
                  </>
                ) : null}
                <dt>How often</dt>
                <dd>
                  {ruleWords(s.rrule)}, {leadWords(s.lead_days)}
                </dd>
                <dt>First due</dt>
                <dd>{longDate(s.starts_on)}</dd>
                <dt>Properties</dt>
                <dd>{s.address_uuid ? <Link to={`/properties/${s.address_uuid}`}>{s.address}</Link> : `Every property with a ${s.type_name ?? s.type ?? 'matching'} item`}</dd>
                <dt>Renews</dt>
                <dd>{s.type_name ?? 'No compliance item (general maintenance)'}</dd>
                <dt>Contractor</dt>
                <dd>{s.contractor_name ?? 'Not assigned'}</dd>
                {s.trade_name ? (
                  <>
                    <dt>Trade</dt>
                    <dd>{s.trade_name}</dd>
                  </>
                ) : null}
                <dt>No jobs for dates before</dt>
                <dd>{longDate(s.active_from)}</dd>
              </dl>
            </section>
            <section aria-labelledby="schedule-next">
              <h2 id="schedule-next">Next due</h2>
              {s.next.length === 0 ? (
                <p className="empty-state">Nothing more is due: the schedule has ended or was deleted.</p>
              ) : (
                <ul className="plain-list">
                  {s.next.map((n) => (
                    <li key={n.due_on}>
                      {n.due_on_text}: its job is raised on {longDate(n.raise_on)}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="schedule-raised">
              <h2 id="schedule-raised">Jobs raised</h2>
              {s.raised.length === 0 ? (
                <p className="empty-state">No job raised yet. The first is raised {s.next[0] ? `on ${longDate(s.next[0].raise_on)}` : 'when a date falls due'}.</p>
              ) : (
                <table>
                  <caption>The latest jobs the schedule raised</caption>
                  <thead>
                    <tr>
                      <th scope="col">Due</th>
                      <th scope="col">Property</th>
                      <th scope="col">Job</th>
                      <th scope="col">Certificate</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.raised.map((r) => (
                      <tr key={`${r.due_on}-${r.address_uuid}`}>
                        <td>{longDate(r.due_on)}</td>
                        <td>
                          <Link to={`/properties/${r.address_uuid}`}>{r.address}</Link>
                        </td>
                        <td>{r.job_uuid ? <Link to={`/jobs/${r.job_uuid}`}>{r.job_reference ?? 'Open the job'}</Link> : 'Not raised'}</td>
                        <td>{r.certificate_uuid ? 'Recorded from the job' : 'Not yet'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}

/**
 * Edits the latest certificate of `item` (PUT /api/compliance/items/{uuid}/certificates/{certificate_uuid}):
 * the document (one of the documents on the property's latest jobs), the tenant's copy (served on,
 * how), an unsatisfactory EICR's remedial works completed, an EPC's exemption. Only the fields
 * filled in are sent; `onDone` gets the sentence to show.
 */
export function CertificateEditForm({ item, onDone, onCancel }: { item: ComplianceItem; onDone: (message: string) => void; onCancel: () => void }) {
  const action = useAction();
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const today = londonToday();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const documents = useLoad(['compliance', 'certificate-documents', item.address_uuid], async () => {
    const jobs = (await api.GET('/api/jobs/manage', { params: { query: { address_uuid: item.address_uuid, limit: 5, sort: 'created_at', order: 'desc' } } })).data!.data;
    const lists = await Promise.all(
      jobs.map(async (j) => ((await api.GET('/api/jobs/{uuid}/documents', { params: { path: { uuid: j.uuid } } })).data!.data ?? []).map((d) => ({ uuid: d.uuid, label: `${d.filename} (job ${j.reference})` }))),
    );
    return lists.flat();
  });
  const isEicr = item.type_code === 'eicr';
  const isEpc = item.type_code === 'epc';
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const get = (k: string) => String(f.get(k) ?? '').trim();
    const body: {
      job_file_uuid?: string;
      tenant_copy_served_on?: string;
      tenant_copy_method?: ServeMethod;
      remedial_completed_on?: string;
      exemption_reference?: string;
      exemption_until?: string;
    } = {};
    const found: Record<string, string> = {};
    if (get('job_file_uuid')) body.job_file_uuid = get('job_file_uuid');
    if (get('tenant_copy_served_on')) {
      if (get('tenant_copy_served_on') > today) found.served = 'The copy cannot be served in the future.';
      body.tenant_copy_served_on = get('tenant_copy_served_on');
      const method = get('tenant_copy_method');
      if (isServeMethod(method)) body.tenant_copy_method = method;
    }
    if (get('remedial_completed_on')) {
      if (get('remedial_completed_on') > today) found.remedial = 'The works cannot be completed in the future.';
      body.remedial_completed_on = get('remedial_completed_on');
    }
    if (get('exemption_reference')) body.exemption_reference = get('exemption_reference');
    if (get('exemption_until')) body.exemption_until = get('exemption_until');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(body).length === 0) {
      action.setProblem({ message: 'Fill in at least one field to change.', field: null, retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      const { data } = await api.PUT('/api/compliance/items/{uuid}/certificates/{certificate_uuid}', {
        params: { path: { uuid: item.uuid, certificate_uuid: item.certificate_uuid! } },
        body,
      });
      const d = data!.data;
      onDone(`Certificate saved: ${d.type_name} at ${d.address} is now ${d.status.replace('_', ' ')}.`);
    });
  };
  return (
    <section className="what-next" aria-labelledby="certificate-edit">
      <h2 id="certificate-edit" ref={heading} tabIndex={-1}>
        Edit the certificate: {item.type_name}, {item.address}
      </h2>
      <p className="hint">
        Issued {item.issued_on ? formatLondonDate(item.issued_on) : 'on a date not recorded'}. Fill in only what changes; empty fields keep what is recorded.
      </p>
      <form className="form" onSubmit={submit} noValidate>
        <Labelled label="The document" hint="A document uploaded on one of the property's latest jobs.">
          {(id, d) => (
            <select id={id} name="job_file_uuid" defaultValue="" aria-describedby={d}>
              <option value="">{item.file_uuid ? 'Keep the document recorded' : 'No document chosen'}</option>
              {(documents.data ?? []).map((doc) => (
                <option key={doc.uuid} value={doc.uuid}>
                  {doc.label}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <ProblemMessage problem={documents.problem} onRetry={documents.reload} />
        <Labelled label="Tenant's copy served on" error={errors.served ?? null} hint={item.tenant_copy_served_on ? `Recorded: ${formatLondonDate(item.tenant_copy_served_on)}.` : item.tenant_copy_due_on ? `Due by ${formatLondonDate(item.tenant_copy_due_on)}.` : undefined}>
          {(id, d) => <input id={id} name="tenant_copy_served_on" type="date" max={today} aria-invalid={Boolean(errors.served) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="How it was served">
          {(id) => (
            <select id={id} name="tenant_copy_method" defaultValue="email">
              {Object.entries(SERVE_METHODS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        {isEicr ? (
          <Labelled label="Remedial works completed on" error={errors.remedial ?? null} hint={item.remedial_due_on ? `Due by ${formatLondonDate(item.remedial_due_on)} (unsatisfactory report).` : 'For an unsatisfactory report.'}>
            {(id, d) => <input id={id} name="remedial_completed_on" type="date" max={today} aria-invalid={Boolean(errors.remedial) || undefined} aria-describedby={d} />}
          </Labelled>
        ) : null}
        {isEpc ? (
          <>
            <Labelled label="Exemption reference" hint="The PRS Exemptions Register reference, for an EPC below E.">
              {(id, d) => <input id={id} name="exemption_reference" maxLength={100} aria-describedby={d} />}
            </Labelled>
            <Labelled label="Exemption until" hint={item.exemption_until ? `Recorded: ${formatLondonDate(item.exemption_until)}.` : undefined}>
              {(id, d) => <input id={id} name="exemption_until" type="date" aria-describedby={d} />}
            </Labelled>
          </>
        ) : null}
        <ProblemMessage problem={action.problem} />
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            Save certificate
          </Button>
          <Button variant="secondary" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

type BulkScope = 'pick' | 'building' | 'all';

/** "Meanwood Court, 12 Otley Road": a building's name and street for people ("the building" when none is given). */
function buildingWords(b: { building_name: string | null; building_number: string | null; street: string | null } | undefined): string {
  if (!b) return 'the building';
  const street = [b.building_number, b.street].filter(Boolean).join(' ');
  return [b.building_name, street].filter(Boolean).join(', ') || 'the building';
}

/**
 * Adds an item type to many properties at once (POST /api/compliance/items/bulk): properties
 * picked one by one, every unit of a building, or the whole portfolio; asks first, then says how
 * many were added and how many already had one.
 */
export function BulkAddSection({ types, onDone }: { types: ComplianceType[]; onDone: (message: string) => void }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [type, setType] = useState('');
  const [scope, setScope] = useState<BulkScope>('pick');
  const [picked, setPicked] = useState<Array<{ uuid: string; label: string }>>([]);
  const [pickerKey, setPickerKey] = useState(0);
  const [building, setBuilding] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const buildings = useLoad(['buildings', ''], async () => (await api.GET('/api/buildings', { params: { query: { limit: 100 } } })).data!);
  const live = types.filter((t) => !t.retired_at);
  const typeName = live.find((t) => t.code === type)?.name ?? type;
  const buildingName = buildingWords(buildings.data?.data.find((b) => b.uuid === building));
  const go = () => {
    setResult(null);
    if (!type) return action.setProblem({ message: 'Choose the compliance item to add.', field: null, retry: false, retryAfterSeconds: null, status: 400 });
    if (scope === 'pick' && picked.length === 0) return action.setProblem({ message: 'Pick at least one property.', field: null, retry: false, retryAfterSeconds: null, status: 400 });
    if (scope === 'building' && !building) return action.setProblem({ message: 'Choose the building.', field: null, retry: false, retryAfterSeconds: null, status: 400 });
    action.setProblem(null);
    const where = scope === 'all' ? 'every property of the agency' : scope === 'building' ? `every unit of ${buildingName}` : picked.length === 1 ? picked[0]!.label : `${picked.length} properties`;
    ask({
      title: `Add ${typeName} to ${where}?`,
      body: 'Each property without one gets the item, missing until a certificate is recorded. Properties that have one keep it.',
      confirmLabel: `Add ${typeName}`,
      cancelLabel: 'Not now',
      onConfirm: () =>
        void action.run(async () => {
          const body = scope === 'all' ? { type, all: true as const } : scope === 'building' ? { type, building_uuid: building } : { type, address_uuids: picked.map((p) => p.uuid) };
          const { data } = await api.POST('/api/compliance/items/bulk', { body });
          const d = data!.data;
          const message = `${typeName} added to ${d.created} of ${d.properties} ${d.properties === 1 ? 'property' : 'properties'}${d.existing ? `; ${d.existing} already had one` : ''}.`;
          setResult(message);
          setPicked([]);
          onDone(message);
        }),
    });
  };
  return (
    <section aria-labelledby="bulk-add">
      <h2 id="bulk-add">Add an item to many properties</h2>
      <div className="form">
        <ComplianceTypeSelect label="Compliance item to add" types={live} value={type} onChange={setType} />
        <fieldset>
          <legend>Which properties</legend>
          {(
            [
              ['pick', 'Properties I pick'],
              ['building', 'Every unit of a building'],
              ['all', 'Every property of the agency'],
            ] as const
          ).map(([k, label]) => (
            <label key={k} className="checkbox-native">
              <input type="radio" name="bulk-scope" value={k} checked={scope === k} onChange={() => setScope(k)} /> {label}
            </label>
          ))}
        </fieldset>
        {scope === 'pick' ? (
          <>
            <PropertyPicker
              key={pickerKey}
              label="Add a property to the selection"
              required={false}
              onChange={(a) => {
                if (!a) return;
                setPicked((list) => (list.some((p) => p.uuid === a.uuid) ? list : [...list, { uuid: a.uuid, label: addressLabel(a) }]));
                setPickerKey((k) => k + 1);
              }}
            />
            {picked.length === 0 ? (
              <p className="hint">No property picked yet: type part of an address above.</p>
            ) : (
              <ul className="plain-list" aria-label="Properties picked">
                {picked.map((p) => (
                  <li key={p.uuid}>
                    {p.label}{' '}
                    <Button variant="secondary" aria-label={`Remove ${p.label}`} onPress={() => setPicked((list) => list.filter((x) => x.uuid !== p.uuid))}>
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : null}
        {scope === 'building' ? (
          <Labelled label="Building" hint={buildings.data && buildings.data.data.length === 0 ? 'No buildings yet: add one on the Buildings page.' : undefined}>
            {(id, d) => (
              <select id={id} value={building} onChange={(e) => setBuilding(e.target.value)} aria-describedby={d}>
                <option value="">Choose a building</option>
                {(buildings.data?.data ?? []).map((b) => (
                  <option key={b.uuid} value={b.uuid}>
                    {buildingWords(b)}, {b.town}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        ) : null}
        <ProblemMessage problem={buildings.problem} onRetry={buildings.reload} />
        <ProblemMessage problem={action.problem} />
        {result ? (
          <p className="notice" role="status">
            {result}
          </p>
        ) : null}
        <div className="button-row">
          <Button isDisabled={action.busy} onPress={go}>
            Add to the properties
          </Button>
        </div>
      </div>
      {dialog}
    </section>
  );
}

/**
 * What the property is, for the compliance it needs (PUT /api/compliance/properties/{uuid}/profile,
 * docs/compliance.md "What a property needs"): gas supply, storeys with living accommodation and
 * the rooms with a fixed combustion appliance. The API has no read of these, so empty fields keep
 * what is recorded; the answer (the property's profile and its items) is shown once saved and
 * `onSaved` reloads the page's compliance list.
 */
export function PropertyProfile({ addressUuid, onSaved }: { addressUuid: string; onSaved: () => void }) {
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const [storeysError, setStoreysError] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const gas = String(f.get('gas_supply') ?? '');
    const storeysText = String(f.get('storeys') ?? '').trim();
    const roomsText = String(f.get('combustion_rooms') ?? '').trim();
    const noRooms = f.get('no_rooms') === 'on';
    const storeys = Number(storeysText);
    if (storeysText && (!Number.isInteger(storeys) || storeys < 1 || storeys > 100)) {
      setStoreysError('Enter a whole number from 1 to 100.');
      return;
    }
    setStoreysError(null);
    const rooms = roomsText
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    const body = {
      ...(gas === 'yes' ? { gas_supply: true } : gas === 'no' ? { gas_supply: false } : gas === 'unknown' ? { gas_supply: null } : {}),
      ...(storeysText ? { storeys } : {}),
      ...(noRooms ? { combustion_rooms: [] } : rooms.length > 0 ? { combustion_rooms: rooms } : {}),
    };
    setSaved(null);
    if (Object.keys(body).length === 0) {
      action.setProblem({ message: 'Fill in at least one field to change.', field: null, retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const form = e.currentTarget;
    void action.run(async () => {
      const { data } = await api.PUT('/api/compliance/properties/{uuid}/profile', { params: { path: { uuid: addressUuid } }, body });
      const d = data!.data;
      const gasWords = d.gas_supply === true ? 'has a gas supply' : d.gas_supply === false ? 'has no gas supply' : 'gas supply not recorded';
      const storeyWords = d.storeys === null ? 'storeys not recorded' : d.storeys === 1 ? '1 storey' : `${d.storeys} storeys`;
      const roomWords = d.combustion_rooms.length ? `a combustion appliance in ${d.combustion_rooms.join(', ')}` : 'no room with a combustion appliance';
      setSaved(`Saved: ${gasWords}, ${storeyWords}, ${roomWords}. The property has ${d.items.length} compliance ${d.items.length === 1 ? 'item' : 'items'}.`);
      form.reset();
      onSaved();
    });
  };
  return (
    <section aria-labelledby="property-profile">
      <h2 id="property-profile">What the property has</h2>
      <p className="hint">What decides its compliance items: gas safety needs a gas supply, smoke alarms go on each storey, carbon monoxide alarms in each room with a fixed combustion appliance. Empty fields keep what is recorded.</p>
      {saved ? (
        <p className="notice" role="status">
          {saved}
        </p>
      ) : null}
      <form className="form" onSubmit={submit} noValidate>
        <Labelled label="Gas supply">
          {(id) => (
            <select id={id} name="gas_supply" defaultValue="">
              <option value="">Keep as recorded</option>
              <option value="yes">Has a gas supply</option>
              <option value="no">No gas supply</option>
              <option value="unknown">Not known (gas safety still required)</option>
            </select>
          )}
        </Labelled>
        <Labelled label="Storeys with living accommodation" error={storeysError}>
          {(id, d) => <input id={id} name="storeys" type="number" min={1} max={100} inputMode="numeric" aria-invalid={Boolean(storeysError) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="Rooms with a fixed combustion appliance" hint='Separate them with commas, such as "Living room, Bedroom 1". Gas cookers do not count.'>
          {(id, d) => <input id={id} name="combustion_rooms" maxLength={2000} aria-describedby={d} />}
        </Labelled>
        <label className="checkbox-native">
          <input type="checkbox" name="no_rooms" /> No room has one
        </label>
        <ProblemMessage problem={action.problem} />
        <div className="button-row">
          <Button type="submit" variant="secondary" isDisabled={action.busy}>
            Save what the property has
          </Button>
        </div>
      </form>
    </section>
  );
}
