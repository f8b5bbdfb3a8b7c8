/**
 * Landlords (docs/console.md "Landlords", docs/landlords.md): the list, searched and paged in the
 * URL (`/landlords?q=oyelaran&page=2`, GET /api/landlords) with a short form to add one, and each
 * landlord's record (`/landlords/{uuid}`): details, the spend limit (own or the agency's default),
 * the properties with their ownership shares (linked and unlinked here), the approvals asked of
 * them with their state and "Send again", and statements per month with their PDF and CSV.
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api.ts';
import { PAGE_SIZE } from '../logic/job-filters.ts';
import { approvalWords, canResend, percentToBp, shareWords, statementPeriods } from '../logic/landlords.ts';
import { poundsToPence } from '../logic/money.ts';
import { londonToday, longDate } from '../logic/recurrence.ts';
import { useSession } from '../session.tsx';
import { DataTable, type Column } from '../table.tsx';
import type { Approval, Landlord, LandlordDetail, Statement } from '../types.ts';
import { Button, formatDateTime, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { ListTable } from './lists.tsx';
import { InviteToApp, Loaded } from './people-forms.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';

/** The landlord's payments, own login, data report and erasure (landlord-extras.tsx). */
const LandlordOffice = lazy(async () => ({ default: (await import('./landlord-extras.tsx')).LandlordOffice }));

/** "£250.00", or what applies without one. */
function limitWords(pence: number | null, agencyDefault: number | null | undefined): string {
  if (pence !== null) return formatPence(pence);
  if (agencyDefault === undefined) return "the agency's default";
  return agencyDefault === null ? "none (the agency sets no default)" : `the agency's default, ${formatPence(agencyDefault)}`;
}

/** The agency's default spend limit (GET /api/landlords/settings), shared by the pages under one key. */
function useLandlordSettings() {
  return useLoad(['landlords', 'settings'], async () => (await api.GET('/api/landlords/settings')).data!.data);
}

/** The landlords list, with "Add a landlord" for holders of api.landlords.manage. */
export function LandlordsPage() {
  const session = useSession();
  const settings = useLandlordSettings();
  const columns: Column<Landlord, never>[] = [
    { header: 'Name', cell: (r) => <Link to={`/landlords/${r.uuid}`}>{r.name}</Link> },
    { header: 'Kind', key: true, cell: (r) => (r.kind === 'company' ? 'Company' : 'Person') },
    { header: 'E-mail', key: true, cell: (r) => r.email ?? '-' },
    { header: 'Phone', cell: (r) => r.phone ?? '-' },
    { header: 'Properties', key: true, cell: (r) => r.property_count },
    { header: 'Spend limit', key: true, cell: (r) => limitWords(r.approval_limit_pence, settings.data?.default_approval_limit_pence) },
  ];
  return (
    <>
      <PageTitle>Landlords</PageTitle>
      <ListTable<Landlord, never>
        label="landlords"
        rowKey={(r) => r.uuid}
        searchHint="Name, e-mail or your reference."
        empty={
          <p>
            No landlords yet. Import them with their properties and ownership shares on the <Link to="/imports">Import</Link> page (template{' '}
            <a href="/api/imports/templates/landlords.csv">landlords.csv</a>; import the properties first), or add one below and link their properties on their
            page.
          </p>
        }
        load={async (q, offset) => {
          const { data } = await api.GET('/api/landlords', { params: { query: { ...(q ? { q } : {}), limit: PAGE_SIZE, offset } } });
          return { data: data!.data, count: data!.count };
        }}
        columns={columns}
      />
      {session.permissions.has('api.landlords.manage') ? <AddLandlord /> : null}
    </>
  );
}

/** The short form that creates a landlord (POST /api/landlords) and opens their page. */
function AddLandlord() {
  const action = useAction();
  const [created, setCreated] = useState<{ uuid: string; name: string } | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const kind = text('kind') === 'company' ? 'company' : 'person';
    void action.run(async () => {
      const { data } = await api.POST('/api/landlords', {
        body: { kind, name: text('name'), ...(text('email') ? { email: text('email') } : {}), ...(text('phone') ? { phone: text('phone') } : {}) },
      });
      form.reset();
      setCreated({ uuid: data!.data.uuid, name: data!.data.name });
    });
  };
  return (
    <section aria-labelledby="add-landlord">
      <h2 id="add-landlord">Add a landlord</h2>
      {created ? (
        <p className="notice" role="status">
          {created.name} added: <Link to={`/landlords/${created.uuid}`}>open their page</Link> to link their properties.
        </p>
      ) : null}
      <form className="form" aria-labelledby="add-landlord" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Person or company
          <select name="kind" defaultValue="person">
            <option value="person">Person</option>
            <option value="company">Company</option>
          </select>
        </label>
        <label>
          E-mail (approvals and statements go here)
          <input name="email" type="email" maxLength={254} autoComplete="off" />
        </label>
        <label>
          Phone
          <input name="phone" type="tel" maxLength={30} autoComplete="off" />
        </label>
        <ProblemMessage problem={action.problem} />
        <Button type="submit" isDisabled={action.busy}>
          Add the landlord
        </Button>
      </form>
    </section>
  );
}

/** A landlord's record page. */
export function LandlordPage() {
  const { uuid = '' } = useParams();
  const record = useLoad(['landlords', uuid], async () => (await api.GET('/api/landlords/{uuid}', { params: { path: { uuid } } })).data!.data);
  return (
    <>
      <PageTitle>{record.data && !record.placeholder ? record.data.name : 'Landlord'}</PageTitle>
      <p>
        <Link to="/landlords">Back to the landlords</Link>
      </p>
      <Loaded load={record}>{(l) => <LandlordRecord landlord={l} onChanged={record.reload} />}</Loaded>
    </>
  );
}

function LandlordRecord({ landlord: l, onChanged }: { landlord: LandlordDetail; onChanged: () => void }) {
  const session = useSession();
  const settings = useLandlordSettings();
  const address = [l.correspondence_address.line1, l.correspondence_address.line2, l.correspondence_address.town, l.correspondence_address.postcode]
    .filter(Boolean)
    .join(', ');
  return (
    <>
      <section aria-labelledby="landlord-details">
        <h2 id="landlord-details">Details</h2>
        <dl className="details">
          <dt>Kind</dt>
          <dd>{l.kind === 'company' ? 'Company' : 'Person'}</dd>
          <dt>E-mail</dt>
          <dd>{l.email ? <a href={`mailto:${l.email}`}>{l.email}</a> : 'none: approvals cannot be e-mailed'}</dd>
          <dt>Phone</dt>
          <dd>{l.phone ? <a href={`tel:${l.phone.replace(/\s+/g, '')}`}>{l.phone}</a> : '-'}</dd>
          <dt>Letters to</dt>
          <dd>{address || '-'}</dd>
          <dt>VAT</dt>
          <dd>{l.vat_registered ? `Registered${l.vat_number ? `, ${l.vat_number}` : ''}` : 'Not registered'}</dd>
          <dt>Your reference</dt>
          <dd>{l.external_ref ?? '-'}</dd>
          <dt>Bank details</dt>
          <dd>
            {l.bank_details
              ? [l.bank_details.account_name, l.bank_details.sort_code, l.bank_details.account_number].filter(Boolean).join(', ') || 'none on file'
              : l.has_bank_details
                ? 'on file'
                : 'none on file'}
          </dd>
          <dt>Spend limit</dt>
          <dd>{limitWords(l.approval_limit_pence, settings.data?.default_approval_limit_pence)}</dd>
          {l.notes ? (
            <>
              <dt>Notes</dt>
              <dd>{l.notes}</dd>
            </>
          ) : null}
        </dl>
        {session.permissions.has('api.landlords.manage') && !l.erased_at ? <SpendLimitForm landlord={l} onChanged={onChanged} /> : null}
        {!l.erased_at ? <InviteToApp kind="landlord" uuid={l.uuid} /> : null}
      </section>
      <Properties landlord={l} onChanged={onChanged} />
      <Approvals landlordUuid={l.uuid} />
      {session.permissions.has('api.landlords.statements.view') ? <Statements landlordUuid={l.uuid} /> : null}
      <Suspense fallback={null}>
        <LandlordOffice landlord={l} onChanged={onChanged} />
      </Suspense>
    </>
  );
}

/** Sets or clears the landlord's own spend limit (PUT /api/landlords/{uuid} approval_limit_pence). */
function SpendLimitForm({ landlord, onChanged }: { landlord: LandlordDetail; onChanged: () => void }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = String(new FormData(e.currentTarget).get('limit') ?? '').trim();
    const pence = text === '' ? null : poundsToPence(text);
    if (text !== '' && pence === null) {
      action.setProblem({ message: 'Type the limit in pounds, such as 250 or 250.00, or leave it empty for the agency default.', field: 'limit', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      await api.PUT('/api/landlords/{uuid}', { params: { path: { uuid: landlord.uuid } }, body: { approval_limit_pence: pence } });
      setDone(pence === null ? 'The agency default now applies.' : `Spend limit set to ${formatPence(pence)}.`);
      onChanged();
    });
  };
  return (
    <form className="form inline" aria-label="Spend limit" onSubmit={onSubmit}>
      <label>
        Spend limit in pounds (empty: the agency default)
        <input name="limit" inputMode="decimal" defaultValue={landlord.approval_limit_pence === null ? '' : (landlord.approval_limit_pence / 100).toFixed(2)} />
      </label>
      <Button type="submit" variant="secondary" isDisabled={action.busy}>
        Save the limit
      </Button>
      <ProblemMessage problem={action.problem} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
    </form>
  );
}

type Owned = LandlordDetail['properties'][number];

/** The landlord's properties with their shares; link another or unlink one (api.landlords.manage). */
function Properties({ landlord, onChanged }: { landlord: LandlordDetail; onChanged: () => void }) {
  const session = useSession();
  const manage = session.permissions.has('api.landlords.manage') && !landlord.erased_at;
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [picked, setPicked] = useState<string | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const path = { params: { path: { uuid: landlord.uuid } } };
  const columns: Column<Owned, never>[] = [
    { header: 'Property', cell: (p) => <Link to={`/properties/${p.address.uuid}`}>{addressLabel(p.address)}</Link> },
    { header: 'Share', key: true, cell: (p) => shareWords(p.share_bp) },
  ];
  if (manage)
    columns.push({
      header: 'Unlink',
      action: true,
      cell: (p) => (
        <Button
          variant="secondary"
          aria-label={`Unlink ${addressLabel(p.address)}`}
          onPress={() =>
            ask({
              title: 'Unlink this property?',
              body: <p>{addressLabel(p.address)} will no longer be on {landlord.name}’s statements, and their approval will not be asked for its jobs.</p>,
              confirmLabel: 'Unlink',
              danger: true,
              onConfirm: () =>
                void action.run(async () => {
                  await api.DELETE('/api/landlords/{uuid}/properties/{address_uuid}', { params: { path: { uuid: landlord.uuid, address_uuid: p.address.uuid } } });
                  onChanged();
                }),
            })
          }
        >
          Unlink
        </Button>
      ),
    });
  const onLink = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const bp = percentToBp(String(new FormData(form).get('share') ?? ''));
    if (!picked) {
      action.setProblem({ message: 'Choose the property first.', field: 'address_uuid', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    if (bp === null) {
      action.setProblem({ message: 'Type the share as a percentage above 0 and at most 100, such as 50.', field: 'share', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      await api.POST('/api/landlords/{uuid}/properties', { ...path, body: { address_uuid: picked, share_bp: bp } });
      form.reset();
      setPicked(null);
      setPickerKey((k) => k + 1);
      onChanged();
    });
  };
  return (
    <section aria-labelledby="landlord-properties">
      <h2 id="landlord-properties">Properties and shares</h2>
      <DataTable
        label="Properties"
        columns={columns}
        rows={landlord.properties}
        rowKey={(p) => p.address.uuid}
        empty={<p>No properties linked yet.{manage ? ' Link one below with the share this landlord owns.' : ''}</p>}
      />
      {manage ? (
        <form className="form" aria-labelledby="link-property" onSubmit={onLink}>
          <h3 id="link-property">Link a property</h3>
          <PropertyPicker key={pickerKey} onChange={(a) => setPicked(a?.uuid ?? null)} problem={action.problem?.field === 'address_uuid' ? action.problem.message : null} />
          <label>
            Share owned, in per cent
            <input name="share" inputMode="decimal" defaultValue="100" required />
          </label>
          <p className="hint">Linking a property already linked changes the share. The shares of one property add up to at most 100 %.</p>
          <ProblemMessage problem={action.problem?.field === 'address_uuid' ? null : action.problem} />
          <Button type="submit" isDisabled={action.busy}>
            Link the property
          </Button>
        </form>
      ) : null}
      {dialog}
    </section>
  );
}

/** The approvals asked of the landlord, newest first, with "Send again" for a pending or questioned one. */
function Approvals({ landlordUuid }: { landlordUuid: string }) {
  const session = useSession();
  const list = useLoad(['landlords', landlordUuid, 'approvals'], async () =>
    (await api.GET('/api/landlords/approvals', { params: { query: { landlord_uuid: landlordUuid, limit: 50 } } })).data!,
  );
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [sent, setSent] = useState<string | null>(null);
  const manage = session.permissions.has('api.landlords.approvals.manage');
  // Read again first (GET /api/landlords/approvals/{uuid}): the landlord may have answered since
  // the list was shown, and an answered approval is not withdrawn.
  const withdraw = (a: Approval) =>
    void action.run(async () => {
      const fresh = (await api.GET('/api/landlords/approvals/{uuid}', { params: { path: { uuid: a.uuid } } })).data!.data;
      if (!canResend(fresh.status)) {
        setSent(`The landlord has already answered ${a.job_reference}: ${approvalWords(fresh.status)}.`);
        list.reload();
        return;
      }
      ask({
        title: `Withdraw the approval asked for ${a.job_reference}?`,
        body: 'The link e-mailed to the landlord stops working. The job waits for your decision.',
        confirmLabel: 'Withdraw approval',
        cancelLabel: 'Keep asking',
        danger: true,
        onConfirm: () =>
          void action.run(async () => {
            await api.POST('/api/landlords/approvals/{uuid}/revoke', { params: { path: { uuid: a.uuid } }, body: {} });
            setSent(`The approval for ${a.job_reference} was withdrawn.`);
            list.reload();
          }),
      });
    });
  const resend = (a: Approval) =>
    void action.run(async () => {
      await api.POST('/api/landlords/approvals/{uuid}/resend', { params: { path: { uuid: a.uuid } }, body: {} });
      setSent(`A new link for ${a.job_reference} was e-mailed to the landlord.`);
      list.reload();
    });
  const columns: Column<Approval, never>[] = [
    { header: 'Job', cell: (a) => <Link to={`/jobs/${a.job_uuid}`}>{a.job_reference}</Link> },
    { header: 'What for', key: true, cell: (a) => a.description },
    { header: 'Amount', key: true, cell: (a) => `${formatPence(a.amount_pence)} (limit ${formatPence(a.limit_pence)})` },
    {
      header: 'State',
      key: true,
      cell: (a) => (
        <>
          {approvalWords(a.status)}
          {a.comment ? <span className="quoted">“{a.comment}”</span> : null}
        </>
      ),
    },
    { header: 'Asked', key: true, cell: (a) => formatDateTime(a.created_at) },
    { header: 'Answer by', cell: (a) => (a.answered_at ? `answered ${formatDateTime(a.answered_at)}` : formatDateTime(a.expires_at)) },
  ];
  if (manage)
    columns.push({
      header: 'Send again',
      action: true,
      cell: (a) =>
        canResend(a.status) ? (
          <div className="button-row">
            <Button variant="secondary" aria-label={`Send again: ${a.job_reference}`} isDisabled={action.busy} onPress={() => resend(a)}>
              Send again
            </Button>
            <Button variant="danger" aria-label={`Withdraw: ${a.job_reference}`} isDisabled={action.busy} onPress={() => withdraw(a)}>
              Withdraw
            </Button>
          </div>
        ) : null,
    });
  return (
    <section aria-labelledby="landlord-approvals">
      <h2 id="landlord-approvals">Approvals</h2>
      <ProblemMessage problem={list.problem ?? action.problem} onRetry={list.problem ? list.reload : undefined} />
      {sent ? (
        <p className="notice" role="status">
          {sent}
        </p>
      ) : null}
      <DataTable
        label="Approvals"
        columns={columns}
        rows={list.data?.data ?? []}
        rowKey={(a) => a.uuid}
        empty={list.loading ? <p className="loading">Loading…</p> : <p>No approvals asked yet: a quote or cost above the spend limit asks the landlord by e-mail.</p>}
      />
      {dialog}
    </section>
  );
}

/** A month's statement: the balance in figures and its PDF and CSV (GET /api/landlords/{uuid}/statement[.pdf|.csv]). */
function Statements({ landlordUuid }: { landlordUuid: string }) {
  const periods = statementPeriods(londonToday());
  const [chosen, setChosen] = useState(0);
  const period = periods[chosen]!;
  const query = { from_date: period.from, to_date: period.to };
  const statement = useLoad(['landlords', landlordUuid, 'statement', query], async () =>
    (await api.GET('/api/landlords/{uuid}/statement', { params: { path: { uuid: landlordUuid }, query } })).data!.data,
  );
  const file = (ext: 'pdf' | 'csv', p = period) =>
    `/api/landlords/${encodeURIComponent(landlordUuid)}/statement.${ext}?${new URLSearchParams({ from_date: p.from, to_date: p.to }).toString()}`;
  return (
    <section aria-labelledby="landlord-statements">
      <h2 id="landlord-statements">Statements</h2>
      <ul className="statement-periods">
        {periods.map((p, i) => (
          <li key={p.from}>
            <strong>{p.label}</strong>:{' '}
            <a href={file('pdf', p)} target="_blank" rel="noreferrer">
              PDF<span className="visually-hidden"> statement for {p.label}</span>
            </a>
            {', '}
            <a href={file('csv', p)} download>
              CSV<span className="visually-hidden"> statement for {p.label}</span>
            </a>
            {i === chosen ? null : (
              <>
                {', '}
                <button type="button" className="link-button" onClick={() => setChosen(i)}>
                  show the figures<span className="visually-hidden"> for {p.label}</span>
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <h3>
        {period.label}: {longDate(period.from)} to {longDate(period.to)}
      </h3>
      <ProblemMessage problem={statement.problem} onRetry={statement.reload} />
      {statement.data && !statement.placeholder ? <StatementFigures s={statement.data} /> : statement.problem ? null : <p className="loading">Loading…</p>}
    </section>
  );
}

function StatementFigures({ s }: { s: Statement }) {
  const owed = (p: number) => (p < 0 ? `${formatPence(-p)} owed to the landlord` : `${formatPence(p)} owed by the landlord`);
  return (
    <dl className="details">
      <dt>Opening balance</dt>
      <dd>{owed(s.opening_balance_pence)}</dd>
      <dt>Charges</dt>
      <dd>
        {formatPence(s.charges_pence)} for {s.totals.jobs === 1 ? '1 job' : `${s.totals.jobs} jobs`}
      </dd>
      <dt>Credits</dt>
      <dd>{formatPence(s.credits_pence)}</dd>
      <dt>Paid by the landlord</dt>
      <dd>{formatPence(s.payments_from_landlord_pence)}</dd>
      <dt>Paid to the landlord</dt>
      <dd>{formatPence(s.payments_to_landlord_pence)}</dd>
      <dt>Closing balance</dt>
      <dd>
        <strong>{owed(s.closing_balance_pence)}</strong>
      </dd>
    </dl>
  );
}
