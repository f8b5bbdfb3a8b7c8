/**
 * Smaller office settings placed on the pages where a person looks for them (docs/console.md "The
 * agency's office"): landlords' approvals on Agency settings (GET/PUT /api/landlords/settings: the
 * reminder and the expiry, docs/landlords.md), and a property's Awaab's
 * Law scope on the property page (GET/PUT /api/hazards/properties/{uuid}/scope: social or private
 * rented, and the nation, docs/compliance.md).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatPence, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Section } from './office-admin.tsx';
import { Notice } from './people-forms.tsx';

/** A whole number from a form field, or null when it is not one within [min, max]. */
function wholeNumber(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= min && n <= max ? n : null;
}

/**
 * "Landlords' approvals" on Agency settings: how long a landlord has to answer, and when they are
 * reminded. The spend limit is the agency's "Landlord approval limit" in the form above (the same
 * value, agencies.default_approval_limit_pence): it is read again and sent unchanged.
 */
export function LandlordApprovalSettings() {
  const settings = useLoad(['landlords', 'settings'], async () => (await api.GET('/api/landlords/settings')).data!.data);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const reminder = wholeNumber(String(f.get('reminder') ?? ''), 1, 720);
    if (reminder === null) return action.setProblem({ message: 'Type the reminder as a number of hours from 1 to 720.', field: 'reminder', retry: false, retryAfterSeconds: null, status: 400 });
    const expiry = wholeNumber(String(f.get('expiry') ?? ''), 1, 2160);
    if (expiry === null) return action.setProblem({ message: 'Type the expiry as a number of hours from 1 to 2160 (90 days).', field: 'expiry', retry: false, retryAfterSeconds: null, status: 400 });
    if (reminder >= expiry) return action.setProblem({ message: 'The reminder must come before the approval expires: make it fewer hours than the expiry.', field: 'reminder', retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      // The limit as it is now (it may have just been saved in the form above), sent unchanged.
      const now = (await api.GET('/api/landlords/settings')).data!.data;
      await api.PUT('/api/landlords/settings', { body: { default_approval_limit_pence: now.default_approval_limit_pence, reminder_after_hours: reminder, expires_after_hours: expiry } });
      setDone(`Saved: landlords are reminded after ${reminder} hours and a request expires after ${expiry} hours.`);
      settings.reload();
    });
  };
  const fieldError = (name: string) => (action.problem?.field === name ? action.problem.message : null);
  const s = settings.data;
  return (
    <Section id="landlord-approvals" title="Landlords' approvals">
      <p className="hint">
        A job costing more than the landlord approval limit (above{s && s.default_approval_limit_pence !== null ? `: ${formatPence(s.default_approval_limit_pence)}` : ''}) waits for the landlord&apos;s answer. A landlord&apos;s or property&apos;s own limit
        comes first.
      </p>
      <ProblemMessage problem={settings.problem} onRetry={settings.reload} />
      <Notice text={done} />
      {s ? (
        <form className="form" noValidate onSubmit={save} aria-label="Landlords' approvals">
          <Labelled label="Remind the landlord after (hours)" error={fieldError('reminder')} required>
            {(id, d) => <input id={id} name="reminder" inputMode="numeric" required defaultValue={s.reminder_after_hours} aria-describedby={d} />}
          </Labelled>
          <Labelled label="The request expires after (hours)" hint="Then the agents are told." error={fieldError('expiry')} required>
            {(id, d) => <input id={id} name="expiry" inputMode="numeric" required defaultValue={s.expires_after_hours} aria-describedby={d} />}
          </Labelled>
          {action.problem && !action.problem.field ? <ProblemMessage problem={action.problem} /> : null}
          <Button type="submit" isDisabled={action.busy}>
            Save approval times
          </Button>
        </form>
      ) : null}
    </Section>
  );
}

const NATIONS: Record<string, string> = { england: 'England', wales: 'Wales', scotland: 'Scotland', northern_ireland: 'Northern Ireland' };
const NATION_FROM: Record<string, string> = { stated: 'as stated', postcode: 'from the postcode', assumed: 'assumed: the postcode straddles a border' };

/** "Awaab's Law" on the property page: whether hazards here run under it, tenure and nation, changed by holders of api.hazards.manage. */
export function PropertyHazardScope({ addressUuid }: { addressUuid: string }) {
  const session = useSession();
  const may = session.permissions.has('api.hazards.manage');
  const path = { params: { path: { uuid: addressUuid } } };
  const scope = useLoad(['hazards', 'scope', addressUuid], async () => (await api.GET('/api/hazards/properties/{uuid}/scope', path)).data!.data);
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const nation = String(f.get('nation') ?? '');
    void action.run(async () => {
      await api.PUT('/api/hazards/properties/{uuid}/scope', { ...path, body: { tenure: String(f.get('tenure')) as 'social', nation: nation === '' ? null : (nation as 'england') } });
      setEditing(false);
      setDone('Saved. The deadlines of hazards reported here follow at once.');
      scope.reload();
    });
  };
  const s = scope.data;
  return (
    <Section id="property-hazard-scope" title="Awaab's Law">
      <ProblemMessage problem={action.problem ?? scope.problem} onRetry={scope.problem ? scope.reload : undefined} />
      <Notice text={done} />
      {s ? (
        <>
          <p>{s.scope_text}</p>
          <dl className="details">
            <dt>Tenure</dt>
            <dd>
              {s.tenure === 'social' ? 'Social housing' : 'Private rented'}
              {s.stated ? '' : ' (not stated: private rented is assumed)'}
            </dd>
            <dt>Nation</dt>
            <dd>
              {NATIONS[s.nation] ?? s.nation} ({NATION_FROM[s.nation_from] ?? s.nation_from})
            </dd>
          </dl>
          {may && !editing ? (
            <Button variant="secondary" onPress={() => setEditing(true)}>
              Change tenure or nation
            </Button>
          ) : null}
          {editing ? (
            <form className="form" onSubmit={save} aria-label="Tenure and nation">
              <Labelled label="Tenure">
                {(id) => (
                  <select id={id} name="tenure" defaultValue={s.tenure}>
                    <option value="social">Social housing</option>
                    <option value="private_rented">Private rented</option>
                  </select>
                )}
              </Labelled>
              <Labelled label="Nation" hint="Left to the postcode unless you choose one.">
                {(id, d) => (
                  <select id={id} name="nation" defaultValue={s.nation_from === 'stated' ? s.nation : ''} aria-describedby={d}>
                    <option value="">From the postcode</option>
                    {Object.entries(NATIONS).map(([k, v]) => (
                      <option key={k} value={k}>
                        {v}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Save tenure and nation
                </Button>
                <Button variant="secondary" onPress={() => setEditing(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
