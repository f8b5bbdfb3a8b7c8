/**
 * Withholding items of a tenant's subject-access report, on the tenant's record (docs/gdpr.md
 * "Exemptions", docs/console.md "The agency's office"): the report is read on request (GET
 * /api/tenants/{uuid}/gdpr-report, logged as an export), its withheld items are listed with their
 * ground, reason, who and when, each put back after a confirmation (DELETE
 * .../gdpr-report/exemptions/{exemption}); the items of a chosen section are listed, each withheld
 * under a ground of the Data Protection Act 2018 with a reason (POST .../gdpr-report/exemptions).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { describeSarItem, isWithheld, SAR_GROUNDS, SAR_SECTIONS, sarItemRef, type SarItem, type SarSection } from '../logic/sar.ts';
import { Button, formatLondonDate, formatLondonDateTime, ProblemMessage, useAction, useConfirm } from '../ui.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Section } from './office-admin.tsx';
import { Notice } from './people-forms.tsx';

/** An exemption as the report lists it under `exemptions`. */
type Exemption = { uuid: string; section: string; record_ref: string; ground: string; ground_title: string; source: string; reason: string; applied_by: string | null; applied_at: string };

type Report = Record<string, unknown> & { exemptions?: Exemption[] };

/** The items of a section of the report, or [] when the section is not a list. */
function itemsOf(report: Report, section: SarSection): SarItem[] {
  const items = report[section];
  return Array.isArray(items) ? (items as SarItem[]) : [];
}

/**
 * The "Items withheld from their data report" section: shown to holders of
 * api.tenants.gdpr-report.manage. `onChanged` is not needed: the report is read again after each change.
 */
export function SubjectAccessExemptions({ uuid, name }: { uuid: string; name: string }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [report, setReport] = useState<Report | null>(null);
  const [section, setSection] = useState<SarSection>('jobs');
  const [withholding, setWithholding] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const read = async () => {
    const { data } = await api.GET('/api/tenants/{uuid}/gdpr-report', { params: { path: { uuid }, query: { format: 'json' } } });
    setReport((data as { data: Report }).data);
  };
  const open = () =>
    void action.run(async () => {
      setDone(null);
      await read();
    });
  const withhold = (e: FormEvent<HTMLFormElement>, item: SarItem) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const reason = String(f.get('reason') ?? '').trim();
    const ground = String(f.get('ground') ?? '');
    if (!reason) return action.setProblem({ message: 'Say why the ground applies to this item; the reason is kept with it (the tenant does not see it).', field: 'reason', retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      await api.POST('/api/tenants/{uuid}/gdpr-report/exemptions', {
        params: { path: { uuid } },
        body: { section, record_ref: sarItemRef(item), ground: ground as 'legal_privilege', reason },
      });
      setWithholding(null);
      setDone(`Withheld: ${describeSarItem(section, item)}. The report shows it as withheld under "${SAR_GROUNDS[ground]?.title ?? ground}".`);
      await read();
    });
  };
  const putBack = (x: Exemption) =>
    ask({
      title: 'Put this item back in the report?',
      body: `${SAR_SECTIONS[x.section as SarSection] ?? x.section}, withheld under "${x.ground_title}" (${x.source}). ${name} will see it in the next copy of their data.`,
      confirmLabel: 'Put it back',
      cancelLabel: 'Keep it withheld',
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/tenants/{uuid}/gdpr-report/exemptions/{exemption}', { params: { path: { uuid, exemption: x.uuid } } });
          setDone('The item is in the report again.');
          await read();
        }),
    });
  const reasonError = action.problem?.field === 'reason' ? action.problem.message : null;
  const exemptions = report?.exemptions ?? [];
  const items = report ? itemsOf(report, section) : [];
  return (
    <Section id="tenant-exemptions" title="Items withheld from their data">
      <p className="hint">
        Before sending {name} their data, an item may be withheld, one at a time, under an exemption of the Data Protection Act 2018 (a solicitor&apos;s advice, another
        person&apos;s data). The copy they get says it was withheld and why.
      </p>
      {reasonError ? null : <ProblemMessage problem={action.problem} />}
      <Notice text={done} />
      {report === null ? (
        <Button variant="secondary" isDisabled={action.busy} onPress={open}>
          Review what is withheld
        </Button>
      ) : (
        <>
          <h3>Withheld now</h3>
          {exemptions.length === 0 ? (
            <p className="empty-state">Nothing is withheld: their data report holds every item. Choose a section below to withhold an item.</p>
          ) : (
            <ul className="exemptions">
              {exemptions.map((x) => (
                <li key={x.uuid}>
                  <strong>{SAR_SECTIONS[x.section as SarSection] ?? x.section}</strong>: {x.ground_title} ({x.source}). Reason: {x.reason}.{' '}
                  <span className="meta">
                    Withheld {formatLondonDateTime(x.applied_at)}
                    {x.applied_by ? ` by ${x.applied_by}` : ''}
                  </span>{' '}
                  <Button variant="secondary" aria-label={`Put back: ${x.ground_title}, ${formatLondonDate(x.applied_at)}`} isDisabled={action.busy} onPress={() => putBack(x)}>
                    Put back
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <h3>Items in the report</h3>
          <Labelled label="Section">
            {(id) => (
              <select
                id={id}
                value={section}
                onChange={(e) => {
                  setSection(e.target.value as SarSection);
                  setWithholding(null);
                }}
              >
                {Object.entries(SAR_SECTIONS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v} ({itemsOf(report, k as SarSection).length})
                  </option>
                ))}
              </select>
            )}
          </Labelled>
          {items.length === 0 ? (
            <p className="empty-state">Their report has no {SAR_SECTIONS[section].toLowerCase()}. Choose another section.</p>
          ) : (
            <ul className="sar-items">
              {items.map((item) => {
                const ref = sarItemRef(item);
                const label = describeSarItem(section, item);
                return (
                  <li key={ref}>
                    {isWithheld(item) ? (
                      <>
                        Withheld under {SAR_GROUNDS[String(item.ground)]?.title ?? String(item.ground)} ({String(item.source ?? '')})
                      </>
                    ) : (
                      <>
                        {label}
                        {typeof item.created_at === 'string' ? <span className="meta"> {formatLondonDate(item.created_at)}</span> : null}{' '}
                        {withholding === ref ? null : (
                          <Button variant="secondary" aria-label={`Withhold: ${label}`} isDisabled={action.busy} onPress={() => setWithholding(ref)}>
                            Withhold
                          </Button>
                        )}
                        {withholding === ref ? (
                          <form className="form" noValidate aria-label={`Withhold ${label}`} onSubmit={(e) => withhold(e, item)}>
                            <Labelled label="Ground" required>
                              {(id) => (
                                <select id={id} name="ground" required defaultValue="third_party_data">
                                  {Object.entries(SAR_GROUNDS).map(([k, g]) => (
                                    <option key={k} value={k}>
                                      {g.title} ({g.source})
                                    </option>
                                  ))}
                                </select>
                              )}
                            </Labelled>
                            <Labelled label="Why it applies" hint="Kept with the exemption for the agency; the tenant does not see it." error={reasonError} required>
                              {(id, describedBy) => <textarea id={id} name="reason" rows={3} maxLength={2000} required aria-invalid={reasonError ? true : undefined} aria-describedby={describedBy} />}
                            </Labelled>
                            <div className="button-row">
                              <Button type="submit" isDisabled={action.busy}>
                                Withhold item
                              </Button>
                              <Button variant="secondary" onPress={() => setWithholding(null)}>
                                Cancel
                              </Button>
                            </div>
                          </form>
                        ) : null}
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
      {dialog}
    </Section>
  );
}
