/**
 * A contractor's certificates, VAT registration and self-billing agreement on their page
 * (/contractors/{uuid}; docs/console.md "The agency's office"): certificates listed, added, their
 * document uploaded and opened, and deleted after a confirmation (GET/POST
 * /api/contractors/{uuid}/certifications, DELETE .../{cert_uuid}, GET/POST .../{cert_uuid}/document);
 * VAT registration (GET/PUT /api/pricing/contractors/{uuid}/vat) and the self-billing agreement
 * (GET/PUT /api/pricing/contractors/{uuid}/self-billing; HMRC VAT Notice 700/62).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import '../people-forms.css';

type Cert = { uuid: string; cert_type: string; cert_name: string; reference: string; issued_on: string | null; expires_on: string; status: string; days_left: number; has_document: boolean };

const CERT_TYPES: Record<string, string> = {
  gas_safe: 'Gas Safe',
  niceic: 'NICEIC',
  napit: 'NAPIT',
  oftec: 'OFTEC',
  fensa: 'FENSA',
  chas: 'CHAS',
  public_liability: 'Public liability insurance',
};

/** The sections, for staff who may view contractors; changes for those who manage them. */
export function ContractorOffice({ uuid, name }: { uuid: string; name: string }) {
  const session = useSession();
  return (
    <>
      <CertificatesSection uuid={uuid} name={name} canManage={session.permissions.has('api.contractors.manage')} />
      {session.permissions.has('api.pricing.view') ? <VatSection uuid={uuid} canManage={session.permissions.has('api.pricing.manage')} /> : null}
    </>
  );
}

function CertificatesSection({ uuid, name, canManage }: { uuid: string; name: string; canManage: boolean }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const certs = useLoad(['contractors', uuid, 'certifications'], async () => (await api.GET('/api/contractors/{uuid}/certifications', { params: { path: { uuid } } })).data!.data as Cert[]);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const file = f.get('document');
    void action.run(async () => {
      const { data } = await api.POST('/api/contractors/{uuid}/certifications', {
        params: { path: { uuid } },
        body: { cert_type: String(f.get('cert_type')) as 'gas_safe', reference: String(f.get('reference') ?? '').trim(), issued_on: String(f.get('issued_on') ?? '') || null, expires_on: String(f.get('expires_on') ?? '') },
      });
      if (file instanceof File && file.size > 0)
        await api.POST('/api/contractors/{uuid}/certifications/{cert_uuid}/document', { params: { path: { uuid, cert_uuid: data!.data.uuid } }, body: { file } });
      setDone(`${data!.data.cert_name} added, valid until ${formatLondonDate(data!.data.expires_on)}.`);
      setFormKey((k) => k + 1);
      certs.reload();
    });
  };
  const open = (c: Cert) =>
    void action.run(async () => {
      const { data } = await api.GET('/api/contractors/{uuid}/certifications/{cert_uuid}/document', { params: { path: { uuid, cert_uuid: c.uuid } }, parseAs: 'blob' });
      window.open(URL.createObjectURL(data as Blob), '_blank', 'noopener');
    });
  const remove = (c: Cert) =>
    ask({
      title: `Delete ${name}'s ${c.cert_name} certificate?`,
      body: 'Jobs needing it will no longer count it for this contractor.',
      confirmLabel: 'Delete certificate',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/contractors/{uuid}/certifications/{cert_uuid}', { params: { path: { uuid, cert_uuid: c.uuid } } });
          setDone(`${c.cert_name} deleted.`);
          certs.reload();
        }),
    });
  const columns: Column<Cert>[] = [
    { header: 'Certificate', cell: (c) => c.cert_name },
    { header: 'Number', key: true, cell: (c) => c.reference },
    { header: 'Expires', key: true, cell: (c) => `${formatLondonDate(c.expires_on)} (${c.status === 'expired' ? 'expired' : c.status === 'expiring' ? `${c.days_left} days left` : 'valid'})` },
    {
      header: 'Actions',
      key: true,
      cell: (c) => (
        <div className="button-row">
          {c.has_document ? (
            <Button variant="secondary" aria-label={`Open the document: ${c.cert_name}`} onPress={() => open(c)}>
              Open the document
            </Button>
          ) : null}
          {canManage ? (
            <Button variant="danger" aria-label={`Delete: ${c.cert_name}`} onPress={() => remove(c)}>
              Delete
            </Button>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <Section id="contractor-certs" title="Certificates">
      <ProblemMessage problem={action.problem ?? certs.problem} onRetry={certs.reload} />
      <Notice text={done} />
      {certs.data ? <DataTable label="Certificates" columns={columns} rows={certs.data} rowKey={(c) => c.uuid} empty={<p>No certificates yet. Add their Gas Safe registration or insurance below; jobs that need one are offered only to firms holding it.</p>} /> : null}
      {canManage ? (
        <form key={formKey} className="form inline" onSubmit={add} aria-label="Add a certificate">
          <Labelled label="Certificate">
            {(id) => (
              <select id={id} name="cert_type">
                {Object.entries(CERT_TYPES).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
          <Labelled label="Number" required>
            {(id) => <input id={id} name="reference" required maxLength={100} />}
          </Labelled>
          <Labelled label="Issued on">{(id) => <input id={id} name="issued_on" type="date" />}</Labelled>
          <Labelled label="Expires on" required>
            {(id) => <input id={id} name="expires_on" type="date" required />}
          </Labelled>
          <Labelled label="Document (PDF or photo)">{(id) => <input id={id} name="document" type="file" accept="application/pdf,image/jpeg,image/png" />}</Labelled>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy}>
              Add certificate
            </Button>
          </div>
        </form>
      ) : null}
      {dialog}
    </Section>
  );
}

function VatSection({ uuid, canManage }: { uuid: string; canManage: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const vat = useLoad(['contractors', uuid, 'vat'], async () => (await api.GET('/api/pricing/contractors/{uuid}/vat', { params: { path: { uuid } } })).data!.data);
  const sb = useLoad(['contractors', uuid, 'self-billing'], async () => {
    try {
      return (await api.GET('/api/pricing/contractors/{uuid}/self-billing', { params: { path: { uuid } } })).data!.data;
    } catch (e) {
      // No agreement yet: the API answers 404, which is "none" here.
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  });
  const saveVat = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const registered = f.get('registered') === 'on';
    void action.run(async () => {
      await api.PUT('/api/pricing/contractors/{uuid}/vat', { params: { path: { uuid } }, body: { registered, vat_number: registered ? String(f.get('vat_number') ?? '').trim().toUpperCase() || null : null } });
      setDone(registered ? 'VAT registration saved: their invoices add VAT.' : 'Not VAT-registered: their invoices add no VAT.');
      vat.reload();
    });
  };
  const saveSb = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void action.run(async () => {
      await api.PUT('/api/pricing/contractors/{uuid}/self-billing', {
        params: { path: { uuid } },
        body: { starts_on: String(f.get('starts_on')), ends_on: String(f.get('ends_on')), review_on: String(f.get('review_on')), vat_number_checked_on: String(f.get('checked_on') ?? '') || null },
      });
      setDone('Self-billing agreement saved.');
      sb.reload();
    });
  };
  return (
    <Section id="contractor-vat" title="VAT and self-billing">
      <ProblemMessage problem={action.problem ?? vat.problem ?? sb.problem} onRetry={vat.reload} />
      <Notice text={done} />
      {vat.data ? (
        <form className="form inline" onSubmit={saveVat} aria-label="VAT registration">
          <label className="checkbox-native">
            <input type="checkbox" name="registered" disabled={!canManage} defaultChecked={vat.data.registered} /> VAT-registered
          </label>
          <Labelled label="VAT number">{(id) => <input id={id} name="vat_number" maxLength={20} disabled={!canManage} defaultValue={vat.data!.vat_number ?? ''} />}</Labelled>
          {canManage ? (
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Save VAT registration
              </Button>
            </div>
          ) : null}
        </form>
      ) : null}
      {sb.data !== undefined && !sb.loading ? (
        <>
          <p>{sb.data ? `Self-billing agreement from ${formatLondonDate(sb.data.starts_on)} to ${formatLondonDate(sb.data.ends_on)}, review by ${formatLondonDate(sb.data.review_on)}${sb.data.in_force_today ? ' (in force)' : ' (not in force today)'}.` : 'No self-billing agreement: they send their own invoices.'}</p>
          {canManage ? (
            <form className="form inline" onSubmit={saveSb} aria-label="Self-billing agreement">
              <Labelled label="From" required>
                {(id) => <input id={id} name="starts_on" type="date" required defaultValue={sb.data?.starts_on ?? ''} />}
              </Labelled>
              <Labelled label="Until" required>
                {(id) => <input id={id} name="ends_on" type="date" required defaultValue={sb.data?.ends_on ?? ''} />}
              </Labelled>
              <Labelled label="Review by" required>
                {(id) => <input id={id} name="review_on" type="date" required defaultValue={sb.data?.review_on ?? ''} />}
              </Labelled>
              <Labelled label="VAT number checked on">{(id) => <input id={id} name="checked_on" type="date" defaultValue={sb.data?.vat_number_checked_on ?? ''} />}</Labelled>
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Save agreement
                </Button>
              </div>
            </form>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
