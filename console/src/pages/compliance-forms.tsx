/**
 * The compliance page's writes on items (docs/compliance.md "In the console"): record a
 * certificate on an item (POST /api/compliance/items/{uuid}/certificates: issue and expiry date,
 * certificate number, contractor), add an item to a property (POST /api/compliance/items) and mark
 * a property a house in multiple occupation (PUT /api/compliance/properties/{uuid}/hmo). The API
 * takes no file here: the document is uploaded on the job that did the work (docs/job-files.md),
 * and the first document of a job raised by a schedule becomes the certificate by itself.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { londonToday, longDate } from '../logic/recurrence.ts';
import type { ComplianceItem, ComplianceType, Contractor } from '../types.ts';
import { Button, ProblemMessage, useAction } from '../ui.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';
import { Labelled } from './labelled.tsx';

// Labelled lives in labelled.tsx (without the property picker), re-exported for the pages that take it from here.
export { Labelled };

/** A heading focused (and so scrolled into view) when its form opens, for keyboard, screen-reader and phone users. */
export function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** The contractor <select> options: "Not recorded" first. */
export function ContractorOptions({ contractors, none }: { contractors: Contractor[]; none: string }) {
  return (
    <>
      <option value="">{none}</option>
      {contractors.map((c) => (
        <option key={c.uuid} value={c.uuid}>
          {c.company_name}
        </option>
      ))}
    </>
  );
}

/** A labelled choice of one compliance item type (`types`, by code) with "Choose an item" first (value ''). */
export function ComplianceTypeSelect({ label, types, value, onChange }: { label: string; types: ComplianceType[]; value: string; onChange: (code: string) => void }) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose an item</option>
          {types.map((t) => (
            <option key={t.code} value={t.code}>
              {t.name}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

/**
 * Records a certificate on `item`; checks the dates first (issue not in the future, expiry not
 * before it) and tells `onDone` the sentence to show once the API answers.
 */
export function CertificateForm({ item, contractors, onDone, onCancel }: { item: ComplianceItem; contractors: Contractor[]; onDone: (message: string) => void; onCancel: () => void }) {
  const action = useAction();
  const [dateError, setDateError] = useState<{ issued?: string; expires?: string }>({});
  const today = londonToday();
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const issued = String(f.get('issued_on') ?? '');
    const expires = String(f.get('expires_on') ?? '');
    const errors: { issued?: string; expires?: string } = {};
    if (!issued) errors.issued = 'Enter the date the certificate was issued.';
    else if (issued > today) errors.issued = 'The issue date cannot be in the future.';
    if (expires && issued && expires < issued) errors.expires = 'The expiry date cannot be before the issue date.';
    setDateError(errors);
    if (errors.issued || errors.expires) return;
    const reference = String(f.get('reference') ?? '').trim();
    const contractor = String(f.get('contractor_uuid') ?? '');
    void action.run(async () => {
      const { data } = await api.POST('/api/compliance/items/{uuid}/certificates', {
        params: { path: { uuid: item.uuid } },
        body: { issued_on: issued, ...(expires ? { expires_on: expires } : {}), ...(reference ? { reference } : {}), ...(contractor ? { contractor_uuid: contractor } : {}) },
      });
      const d = data!.data;
      onDone(`Certificate recorded: ${d.type_name} at ${d.address} is now ${d.status.replace('_', ' ')}${d.expires_on ? `, expiring ${longDate(d.expires_on)}` : ''}.`);
    });
  };
  const interval = item.interval_months ? `Leave empty to count ${item.interval_months} months from the issue date.` : 'Leave empty: this item has no expiry.';
  return (
    <section className="what-next" aria-labelledby="certificate-form">
      <h2 id="certificate-form" ref={heading} tabIndex={-1}>
        Record a certificate: {item.type_name}, {item.address}
      </h2>
      <p className="hint">{item.required_document}. Upload the document itself on the job that did the work.</p>
      <form className="form" onSubmit={submit} noValidate>
        <Labelled label="Issue date" required error={dateError.issued}>
          {(id, d) => <input id={id} name="issued_on" type="date" max={today} required aria-invalid={Boolean(dateError.issued) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="Expiry date" hint={interval} error={dateError.expires}>
          {(id, d) => <input id={id} name="expires_on" type="date" aria-invalid={Boolean(dateError.expires) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="Certificate number">{(id) => <input id={id} name="reference" maxLength={200} />}</Labelled>
        <Labelled label="Issued by (contractor)">
          {(id) => (
            <select id={id} name="contractor_uuid" defaultValue={item.contractor_uuid ?? ''}>
              <ContractorOptions contractors={contractors} none="Not recorded" />
            </select>
          )}
        </Labelled>
        <ProblemMessage problem={action.problem} />
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            Record certificate
          </Button>
          <Button variant="secondary" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

/** Adds an item of a type to a property, or marks the property an HMO (its HMO items are added). */
export function PropertyCompliance({ types, onDone }: { types: ComplianceType[]; onDone: (message: string) => void }) {
  const [property, setProperty] = useState<{ uuid: string; label: string } | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [type, setType] = useState('');
  const [hmo, setHmo] = useState(true);
  const action = useAction();
  const live = types.filter((t) => !t.retired_at);
  const need = () => {
    setMissing(property ? null : 'Pick the property first.');
    return property;
  };
  const addItem = () => {
    const p = need();
    if (!p || !type) return;
    void action.run(async () => {
      const { data } = await api.POST('/api/compliance/items', { body: { address_uuid: p.uuid, type } });
      const item = data!.data;
      onDone(data!.message === 'Compliance item already exists' ? `${p.label} already has a ${item.type_name} item.` : `${item.type_name} added to ${p.label}; it is missing until a certificate is recorded.`);
    });
  };
  const saveHmo = () => {
    const p = need();
    if (!p) return;
    void action.run(async () => {
      const { data } = await api.PUT('/api/compliance/properties/{uuid}/hmo', { params: { path: { uuid: p.uuid } }, body: { hmo } });
      onDone(data!.data.is_hmo ? `${p.label} is marked as an HMO; it has ${data!.data.items.length} compliance items.` : `${p.label} is no longer marked as an HMO.`);
    });
  };
  return (
    <section aria-labelledby="property-compliance">
      <h2 id="property-compliance">A property&apos;s items</h2>
      <div className="form">
        <PropertyPicker
          label="Property for the item"
          problem={missing}
          onChange={(a) => {
            setProperty(a ? { uuid: a.uuid, label: addressLabel(a) } : null);
            if (a) setMissing(null);
          }}
        />
        <ComplianceTypeSelect label="Compliance item" types={live} value={type} onChange={setType} />
        <div className="button-row">
          <Button isDisabled={action.busy || !type} onPress={addItem}>
            Add item
          </Button>
        </div>
        <label className="checkbox-native">
          <input type="checkbox" checked={hmo} onChange={(e) => setHmo(e.target.checked)} /> House in multiple occupation (HMO)
        </label>
        <p className="hint">An HMO needs a fire risk assessment and a licence; saving adds those items to the property.</p>
        <div className="button-row">
          <Button variant="secondary" isDisabled={action.busy} onPress={saveHmo}>
            Save HMO status
          </Button>
        </div>
        <ProblemMessage problem={action.problem} />
      </div>
    </section>
  );
}
