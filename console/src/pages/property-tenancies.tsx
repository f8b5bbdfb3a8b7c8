/**
 * The property page's "Tenancies and served documents" section (docs/compliance.md "Tenancies and
 * served documents"): each tenancy with its tenants, what was served (the certificate version or
 * guide edition, when, how, the proof) and what is still owed by the regulations, with a form to
 * record a service (POST /api/properties/{uuid}/tenancies/{tenancy_uuid}/served-documents) and one
 * to start a tenancy with the property's tenants (POST /api/properties/{uuid}/tenancies).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import type { TenancyDetail } from '../types.ts';
import { Button, formatDate, ProblemMessage, useAction, useLoad } from '../ui.tsx';

/** The words of each obligation status. */
export const SERVED_STATUSES: Record<string, string> = {
  served: 'Served',
  served_late: 'Served late',
  owed: 'Owed',
  overdue: 'Overdue',
  not_required: 'Not required',
};
const METHODS: Record<string, string> = { hand: 'by hand', post: 'by post', email: 'by e-mail' };
const DOCUMENT_NAMES: Record<string, string> = { gas_safety: 'Gas safety record', eicr: 'EICR', epc: 'EPC', how_to_rent: 'How to Rent guide' };

/** The section: the property's tenancies, latest first. */
export function Tenancies({ addressUuid, canManage }: { addressUuid: string; canManage: boolean }) {
  const tenancies = useLoad(['tenancies', addressUuid], async () =>
    (await api.GET('/api/properties/{uuid}/tenancies', { params: { path: { uuid: addressUuid }, query: { limit: 20 } } })).data!.data,
  );
  const owed = (tenancies.data ?? []).reduce((s, t) => s + t.owed, 0);
  return (
    <section aria-labelledby="property-tenancies">
      <h2 id="property-tenancies">Tenancies and served documents</h2>
      <ProblemMessage problem={tenancies.problem} onRetry={tenancies.reload} />
      {tenancies.loading && !tenancies.data ? <p className="loading">Loading…</p> : null}
      {tenancies.data && tenancies.data.length === 0 ? <p>No tenancies recorded at this property.</p> : null}
      {tenancies.data && tenancies.data.length > 0 ? <p className="count">{owed === 0 ? 'Nothing owed to the tenants.' : `${owed} document${owed === 1 ? '' : 's'} owed to the tenants.`}</p> : null}
      {(tenancies.data ?? []).map((t) => (
        <Tenancy key={t.uuid} tenancy={t} addressUuid={addressUuid} canManage={canManage} onChanged={tenancies.reload} />
      ))}
      {canManage ? <StartTenancyForm addressUuid={addressUuid} onChanged={tenancies.reload} /> : null}
    </section>
  );
}

function Tenancy({ tenancy: t, addressUuid, canManage, onChanged }: { tenancy: TenancyDetail; addressUuid: string; canManage: boolean; onChanged: () => void }) {
  const title = `Tenancy from ${formatDate(t.starts_on)}${t.ends_on ? ` to ${formatDate(t.ends_on)}` : ''}: ${t.tenants.map((n) => n.name).join(', ')}`;
  return (
    <article aria-label={title} className="tenancy">
      <h3>{title}</h3>
      <table aria-label={`Documents of the tenancy from ${formatDate(t.starts_on)}`}>
        <thead>
          <tr><th>Document</th><th>Version</th><th>Due by</th><th>Status</th><th>Served</th></tr>
        </thead>
        <tbody>
          {t.documents.map((d, i) => (
            <tr key={`${d.document}-${d.certificate_uuid ?? i}`}>
              <td><abbr title={d.rule}>{d.name}</abbr></td>
              <td>{d.certificate_issued_on ? `issued ${formatDate(d.certificate_issued_on)}` : '-'}</td>
              <td>{d.due_by ? formatDate(d.due_by) : '-'}</td>
              <td><strong>{SERVED_STATUSES[d.status] ?? d.status}</strong>{d.reason ? <span className="hint"> ({d.reason})</span> : null}</td>
              <td>{d.served_on ? formatDate(d.served_on) : '-'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {t.served.length > 0 ? (
        <ul aria-label="Served">
          {t.served.map((s) => (
            <li key={s.uuid}>
              {DOCUMENT_NAMES[s.document] ?? s.document}
              {s.certificate_issued_on ? ` (issued ${formatDate(s.certificate_issued_on)})` : s.guide_edition ? ` (edition of ${formatDate(s.guide_edition)})` : ''} served {METHODS[s.method] ?? s.method} on {formatDate(s.served_on)}
              {s.proof_note ? `; proof: ${s.proof_note}` : ''}
              {s.proof_file ? (
                <>
                  {'; '}
                  <a href={`/api/properties/${addressUuid}/tenancies/${t.uuid}/served-documents/${s.uuid}/proof`}>proof file</a>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canManage ? <ServeForm tenancy={t} addressUuid={addressUuid} onChanged={onChanged} /> : null}
    </article>
  );
}

/** The form recording a service: document and version, date, method, proof note, optional proof file. */
function ServeForm({ tenancy: t, addressUuid, onChanged }: { tenancy: TenancyDetail; addressUuid: string; onChanged: () => void }) {
  const action = useAction();
  const [doc, setDoc] = useState<'gas_safety' | 'eicr' | 'epc' | 'how_to_rent'>('gas_safety');
  const versions = t.documents.filter((d) => d.document === doc && d.certificate_uuid !== null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const file = f.get('proof_file');
    void action.run(async () => {
      const res = await api.POST('/api/properties/{uuid}/tenancies/{tenancy_uuid}/served-documents', {
        params: { path: { uuid: addressUuid, tenancy_uuid: t.uuid } },
        body: {
          document: doc,
          ...(doc === 'how_to_rent' ? { guide_edition: text('guide_edition') } : { certificate_uuid: text('certificate_uuid') }),
          served_on: text('served_on'),
          method: text('method') as 'hand' | 'post' | 'email',
          ...(text('proof_note') ? { proof_note: text('proof_note') } : {}),
        },
      });
      const served = res.data!.data.served;
      if (file instanceof File && file.size > 0 && served.length > 0) {
        const newest = [...served].sort((a, b) => a.created_at.localeCompare(b.created_at)).at(-1)!;
        await api.POST('/api/properties/{uuid}/tenancies/{tenancy_uuid}/served-documents/{served_uuid}/proof', {
          params: { path: { uuid: addressUuid, tenancy_uuid: t.uuid, served_uuid: newest.uuid } },
          body: { file },
        });
      }
      form.reset();
      onChanged();
    });
  };
  return (
    <form className="form" aria-label={`Record a service on the tenancy from ${formatDate(t.starts_on)}`} onSubmit={onSubmit}>
      <label>
        Document
        <select name="document" value={doc} onChange={(e) => setDoc(e.currentTarget.value as typeof doc)}>
          {Object.entries(DOCUMENT_NAMES).map(([k, v]) => <option key={k} value={k}>{v}</option>)}
        </select>
      </label>
      {doc === 'how_to_rent' ? (
        <label>
          Edition (the date printed on the guide)
          <input name="guide_edition" type="date" required />
        </label>
      ) : (
        <label>
          Certificate served
          <select name="certificate_uuid" required>
            {versions.map((v) => <option key={v.certificate_uuid} value={v.certificate_uuid!}>{`issued ${formatDate(v.certificate_issued_on!)}`}</option>)}
          </select>
        </label>
      )}
      <label>
        Served on
        <input name="served_on" type="date" required />
      </label>
      <label>
        Method
        <select name="method" defaultValue="hand">
          {Object.entries(METHODS).map(([k, v]) => <option key={k} value={k}>{v}</option>)}
        </select>
      </label>
      <label>
        Proof of service (a note)
        <input name="proof_note" maxLength={2000} />
      </label>
      <label>
        Proof of service (a file: PDF, JPEG or PNG)
        <input name="proof_file" type="file" accept="application/pdf,image/jpeg,image/png" />
      </label>
      <Button type="submit" variant="secondary" isDisabled={action.busy}>
        Record the service
      </Button>
      <ProblemMessage problem={action.problem} />
    </form>
  );
}

/** The form starting a tenancy: its first (and optional last) day, its kind and the property's tenants on it. */
function StartTenancyForm({ addressUuid, onChanged }: { addressUuid: string; onChanged: () => void }) {
  const action = useAction();
  const tenants = useLoad(['tenants', 'property', addressUuid], async () =>
    (await api.GET('/api/tenants', { params: { query: { address_uuid: addressUuid, limit: 50 } } })).data!.data,
  );
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const endsOn = String(f.get('ends_on') ?? '');
    void action.run(async () => {
      await api.POST('/api/properties/{uuid}/tenancies', {
        params: { path: { uuid: addressUuid } },
        body: {
          starts_on: String(f.get('starts_on') ?? ''),
          ...(endsOn ? { ends_on: endsOn } : {}),
          kind: f.get('kind') === 'other' ? 'other' : 'assured_shorthold',
          tenant_uuids: f.getAll('tenant_uuids').map(String),
        },
      });
      form.reset();
      onChanged();
    });
  };
  const list = tenants.data ?? [];
  return (
    <form className="form" aria-label="Start a tenancy" onSubmit={onSubmit}>
      <h3>Start a tenancy</h3>
      <label>
        First day
        <input name="starts_on" type="date" required />
      </label>
      <label>
        Last day (leave empty for a periodic tenancy)
        <input name="ends_on" type="date" />
      </label>
      <label>
        Kind
        <select name="kind" defaultValue="assured_shorthold">
          <option value="assured_shorthold">Assured shorthold</option>
          <option value="other">Other</option>
        </select>
      </label>
      <fieldset>
        <legend>Tenants on the tenancy</legend>
        {list.length === 0 ? <p>No tenants at this property yet. Add the tenants first, then start their tenancy.</p> : null}
        {list.map((n) => (
          <label key={n.uuid} className="check">
            <input type="checkbox" name="tenant_uuids" value={n.uuid} /> {n.name}
          </label>
        ))}
      </fieldset>
      <Button type="submit" variant="secondary" isDisabled={action.busy || list.length === 0}>
        Start the tenancy
      </Button>
      <ProblemMessage problem={action.problem} />
    </form>
  );
}
