/**
 * The last sections of a landlord's, tenant's and user's records (docs/console.md "The agency's
 * office"): a landlord's payments to and from the agency (GET/POST
 * /api/landlords/{uuid}/ledger-entries), the data held on a landlord or tenant as a file (GET
 * .../gdpr-report, UK GDPR Art. 15) and their erasure after a confirmation (POST .../erase, Art.
 * 17); a tenant's consents (GET/POST /api/gdpr/consents, POST .../{uuid}/withdraw); a user's
 * sessions, signed out after a confirmation (GET/DELETE /api/users/{uuid}/sessions). Items
 * withheld from a tenant's data report are in tenant-sar.tsx.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api.ts';
import { poundsToPence } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import type { LandlordDetail } from '../types.ts';
import { Button, formatLondonDate, formatLondonDateTime, formatPence, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import { SubjectAccessExemptions } from './tenant-sar.tsx';

/** Saves a file (or a JSON answer) as a file the browser downloads. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type Entry = { uuid: string; kind: 'payment_from_landlord' | 'payment_to_landlord'; entry_date: string; amount_pence: number; reference: string | null; description: string | null };

/** The landlord's payments, data report and erasure. */
export function LandlordOffice({ landlord: l, onChanged }: { landlord: LandlordDetail; onChanged: () => void }) {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const entries = useLoad(['landlords', l.uuid, 'ledger'], async () => (can('api.landlords.statements.view') ? ((await api.GET('/api/landlords/{uuid}/ledger-entries', { params: { path: { uuid: l.uuid } } })).data!.data as Entry[]) : null));
  const record = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const pence = poundsToPence(String(f.get('amount') ?? ''));
    if (pence === null || pence <= 0) return action.setProblem({ message: 'Type the amount in pounds, such as 250 or 250.00.', field: 'amount', retry: false, retryAfterSeconds: null, status: 400 });
    const kind = String(f.get('kind')) as Entry['kind'];
    void action.run(async () => {
      await api.POST('/api/landlords/{uuid}/ledger-entries', {
        params: { path: { uuid: l.uuid } },
        body: { kind, entry_date: String(f.get('entry_date')), amount_pence: pence, reference: String(f.get('reference') ?? '').trim() || null },
      });
      setDone(`${formatPence(pence)} ${kind === 'payment_from_landlord' ? `received from ${l.name}` : `paid to ${l.name}`} recorded; it shows on their statement.`);
      setFormKey((k) => k + 1);
      entries.reload();
    });
  };
  const report = () =>
    void action.run(async () => {
      // The JSON form of the report (format=zip answers a ZIP, documented as such).
      const { data } = await api.GET('/api/landlords/{uuid}/gdpr-report', { params: { path: { uuid: l.uuid }, query: {} } });
      download(`landlord-${l.name.replace(/\W+/g, '-').toLowerCase()}-data.json`, (data as { data: unknown }).data);
      setDone('The data held on them was downloaded.');
    });
  const erase = () =>
    ask({
      title: `Erase ${l.name}?`,
      body: 'Their name, contact and bank details are removed for good, their properties unlinked and open approvals withdrawn. Invoices and statements keep the amounts. This cannot be undone.',
      confirmLabel: 'Erase for good',
      cancelLabel: 'Keep them',
      danger: true,
      text: { label: `Type ERASE to confirm`, required: true },
      onConfirm: (text) =>
        void action.run(async () => {
          if (text.trim().toUpperCase() !== 'ERASE') throw new Error('Type ERASE to confirm; nothing was erased.');
          const { data } = await api.POST('/api/landlords/{uuid}/erase', { params: { path: { uuid: l.uuid } }, body: {} });
          setDone(`Erased: ${data!.data.properties_unlinked} properties unlinked, ${data!.data.approvals_withdrawn} approvals withdrawn.`);
          onChanged();
        }),
    });
  return (
    <>
      {entries.data ? (
        <Section id="landlord-ledger" title="Payments">
          <ProblemMessage problem={entries.problem} onRetry={entries.reload} />
          {entries.data.length === 0 ? (
            <p className="empty-state">No payments recorded. Record money received from or paid to the landlord below; it shows on their statement.</p>
          ) : (
            <ul>
              {entries.data.map((x) => (
                <li key={x.uuid}>
                  {formatLondonDate(x.entry_date)}: {formatPence(x.amount_pence)} {x.kind === 'payment_from_landlord' ? 'received from them' : 'paid to them'}
                  {x.reference ? ` (${x.reference})` : ''}
                </li>
              ))}
            </ul>
          )}
          {can('api.landlords.payments.manage') && !l.erased_at ? (
            <form key={formKey} className="form inline" onSubmit={record} aria-label="Record a payment">
              <Labelled label="Payment">
                {(id) => (
                  <select id={id} name="kind">
                    <option value="payment_from_landlord">Received from the landlord</option>
                    <option value="payment_to_landlord">Paid to the landlord</option>
                  </select>
                )}
              </Labelled>
              <Labelled label="Amount (£)" required>
                {(id) => <input id={id} name="amount" inputMode="decimal" required />}
              </Labelled>
              <Labelled label="Date" required>
                {(id) => <input id={id} name="entry_date" type="date" required defaultValue={new Date().toISOString().slice(0, 10)} />}
              </Labelled>
              <Labelled label="Reference">{(id) => <input id={id} name="reference" maxLength={100} />}</Labelled>
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Record payment
                </Button>
              </div>
            </form>
          ) : null}
        </Section>
      ) : null}
      {(can('api.landlords.gdpr-report.manage') || can('api.landlords.erase.manage')) && !l.erased_at ? (
        <Section id="landlord-data" title="Their personal data">
          <ProblemMessage problem={action.problem} />
          <Notice text={done} />
          <div className="button-row">
            {can('api.landlords.gdpr-report.manage') ? (
              <Button variant="secondary" isDisabled={action.busy} onPress={report}>
                Download the data held on them
              </Button>
            ) : null}
            {can('api.landlords.erase.manage') ? (
              <Button variant="danger" isDisabled={action.busy} onPress={erase}>
                Erase this landlord
              </Button>
            ) : null}
          </div>
        </Section>
      ) : (
        <>
          <ProblemMessage problem={action.problem} />
          <Notice text={done} />
        </>
      )}
      {dialog}
    </>
  );
}

type Consent = { uuid: string; purpose: string; source: string; given_at: string; withdrawn_at: string | null; active: boolean };

const PURPOSES: Record<string, string> = {
  email_updates: 'E-mails about their repairs',
  sms_updates: 'Text messages about their repairs',
  push_updates: 'App notifications',
  satisfaction_surveys: 'Satisfaction surveys',
  phone_calls: 'Phone calls',
  photos_of_property: 'Photos of the home',
  data_sharing_contractors: 'Sharing their details with contractors',
  marketing_email: 'Marketing e-mails',
};

const SOURCES: Record<string, string> = { in_person: 'In person', phone: 'By phone', email: 'By e-mail', web_form: 'On a web form', tenancy_agreement: 'In the tenancy agreement' };

/** A tenant's consents, data report and erasure, on their record. */
export function TenantOffice({ uuid, name }: { uuid: string; name: string }) {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const navigate = useNavigate();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const consents = useLoad(['tenants', uuid, 'consents'], async () => (can('api.gdpr.consents.manage') ? ((await api.GET('/api/gdpr/consents', { params: { query: { tenant_uuid: uuid, limit: 100 } } })).data!.data as Consent[]) : null));
  const give = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const purpose = String(f.get('purpose'));
    void action.run(async () => {
      await api.POST('/api/gdpr/consents', { body: { tenant_uuid: uuid, purpose: purpose as 'email_updates', source: String(f.get('source')) as 'in_person' } });
      setDone(`Consent recorded: ${PURPOSES[purpose]}.`);
      consents.reload();
    });
  };
  const withdraw = (c: Consent) =>
    ask({
      title: `Withdraw consent to ${PURPOSES[c.purpose]?.toLowerCase() ?? c.purpose}?`,
      confirmLabel: 'Withdraw consent',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.POST('/api/gdpr/consents/{uuid}/withdraw', { params: { path: { uuid: c.uuid } }, body: {} });
          setDone('Consent withdrawn.');
          consents.reload();
        }),
    });
  const report = () =>
    void action.run(async () => {
      // The zip holds the JSON report and the tenant's own photos and documents.
      const { data } = await api.GET('/api/tenants/{uuid}/gdpr-report', { params: { path: { uuid }, query: { format: 'zip' } }, parseAs: 'blob' });
      download(`tenant-${name.replace(/\W+/g, '-').toLowerCase()}-data.zip`, data as Blob);
      setDone('The data held on them was downloaded.');
    });
  const erase = () =>
    ask({
      title: `Erase ${name}?`,
      body: 'Their name and contact details are removed from the tenant record, their jobs and notes for good, and their login disabled. This cannot be undone.',
      confirmLabel: 'Erase for good',
      cancelLabel: 'Keep them',
      danger: true,
      text: { label: 'Type ERASE to confirm', required: true },
      onConfirm: (text) =>
        void action.run(async () => {
          if (text.trim().toUpperCase() !== 'ERASE') throw new Error('Type ERASE to confirm; nothing was erased.');
          await api.POST('/api/tenants/{uuid}/erase', { params: { path: { uuid } }, body: {} });
          navigate('/tenants', { state: { saved: `${name} was erased.` } });
        }),
    });
  return (
    <>
      <ProblemMessage problem={action.problem ?? consents.problem} />
      <Notice text={done} />
      {consents.data ? (
        <Section id="tenant-consents" title="Consents">
          {consents.data.length === 0 ? (
            <p className="empty-state">No consent recorded. Record what the tenant agreed to below.</p>
          ) : (
            <ul>
              {consents.data.map((c) => (
                <li key={c.uuid}>
                  {PURPOSES[c.purpose] ?? c.purpose}: {c.active ? `given ${formatLondonDate(c.given_at)}` : `withdrawn ${formatLondonDate(c.withdrawn_at)}`}{' '}
                  {c.active ? (
                    <Button variant="secondary" aria-label={`Withdraw: ${PURPOSES[c.purpose] ?? c.purpose}`} onPress={() => withdraw(c)}>
                      Withdraw
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <form className="form inline" onSubmit={give} aria-label="Record a consent">
            <Labelled label="They agree to">
              {(id) => (
                <select id={id} name="purpose">
                  {Object.entries(PURPOSES).map(([k, v]) => (
                    <option key={k} value={k}>
                      {v}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="Given">
              {(id) => (
                <select id={id} name="source">
                  {Object.entries(SOURCES).map(([k, v]) => (
                    <option key={k} value={k}>
                      {v}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Record consent
              </Button>
            </div>
          </form>
        </Section>
      ) : null}
      {can('api.tenants.gdpr-report.manage') || can('api.tenants.erase.manage') ? (
        <Section id="tenant-data" title="Their personal data">
          <div className="button-row">
            {can('api.tenants.gdpr-report.manage') ? (
              <Button variant="secondary" isDisabled={action.busy} onPress={report}>
                Download the data held on them
              </Button>
            ) : null}
            {can('api.tenants.erase.manage') ? (
              <Button variant="danger" isDisabled={action.busy} onPress={erase}>
                Erase this tenant
              </Button>
            ) : null}
          </div>
        </Section>
      ) : null}
      {can('api.tenants.gdpr-report.manage') ? <SubjectAccessExemptions uuid={uuid} name={name} /> : null}
      {dialog}
    </>
  );
}

type UserSession = { id: number; kind: string; last_used_at: string; ip_address: string | null; device: string | null };

/** A user's sessions on their edit page, all signed out after a confirmation. */
export function UserSessions({ uuid, name }: { uuid: string; name: string }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const list = useLoad(['users', uuid, 'sessions'], async () => (await api.GET('/api/users/{uuid}/sessions', { params: { path: { uuid }, query: { limit: 50 } } })).data!.data as UserSession[]);
  const endAll = () =>
    ask({
      title: `Sign ${name} out everywhere?`,
      body: 'Every browser, phone and app signed in as them must sign in again.',
      confirmLabel: 'Sign them out',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          const { data } = await api.DELETE('/api/users/{uuid}/sessions', { params: { path: { uuid } } });
          setDone(`${(data!.data as { revoked: number }).revoked} sessions signed out.`);
          list.reload();
        }),
    });
  return (
    <Section id="user-sessions" title="Where they are signed in">
      <ProblemMessage problem={action.problem ?? list.problem} onRetry={list.reload} />
      <Notice text={done} />
      {list.data?.length === 0 ? <p className="empty-state">Not signed in anywhere.</p> : null}
      <ul>
        {(list.data ?? []).map((s) => (
          <li key={s.id}>
            {s.device ?? (s.kind === 'mobile' ? 'The app' : 'A browser')}
            {s.ip_address ? ` at ${s.ip_address}` : ''}, last used {formatLondonDateTime(s.last_used_at)}
          </li>
        ))}
      </ul>
      {list.data && list.data.length > 0 ? (
        <Button variant="danger" isDisabled={action.busy} onPress={endAll}>
          Sign them out everywhere
        </Button>
      ) : null}
      {dialog}
    </Section>
  );
}
