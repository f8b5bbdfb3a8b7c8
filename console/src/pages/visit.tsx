/**
 * Booking the visit (docs/tenant-reporting.md "Booking the visit"): on the job page, the tenant
 * gives the windows when they are in or picks one of the contractor's free slots, the contractor
 * books a slot inside a window (POST /api/jobs/{uuid}/assignment/booking with starts_at and
 * ends_at), and a missed visit is recorded with who missed it. The same windows and free slots
 * on the tenant's signed link page (/visit?token=..., no account). Times are typed and shown in
 * London time.
 */
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { londonIso, londonParts } from '../logic/london.ts';
import type { Party } from '../logic/transitions.ts';
import { Button, ProblemMessage, useAction } from '../ui.tsx';
import { useVisitPlan, type Plan, type SpanInput } from './visit-plan.ts';

const ASSIGNED = 4;
const SCHEDULED = 5;
const BEFORE_WORK = [1, 2, 3, 4, 5];
const MISSED_TEXT: Record<string, string> = { tenant: 'the tenant was not in', contractor: 'the contractor did not come' };

/** The day and slot booked at assignment ("Mon 7 Dec 2026, Afternoon"), when no visit with a time is. */
export interface DaySlot {
  day: string;
  slot: string | null;
}

/** The windows, the booked visit (or the day and slot booked without a time) and the missed visits, as read. */
function PlanSummary({ plan, daySlot }: { plan: Plan; daySlot: DaySlot | null }) {
  return (
    <>
      <p>
        {plan.visit ? (
          <>
            Booked: <strong>{plan.visit.label}</strong> ({plan.visit.booked_by === 'tenant' ? 'picked by the tenant' : 'booked by the contractor'})
          </>
        ) : daySlot ? (
          <>
            Booked for <strong>{[daySlot.day, daySlot.slot].filter(Boolean).join(', ')}</strong>; the contractor has not set an exact time yet.
          </>
        ) : (
          'No visit is booked yet.'
        )}
      </p>
      <h3 id="windows-title">When the tenant is in</h3>
      {plan.windows.length === 0 ? (
        <p>No windows given yet.</p>
      ) : (
        <ul aria-labelledby="windows-title">
          {plan.windows.map((w) => (
            <li key={w.uuid}>{w.label}</li>
          ))}
        </ul>
      )}
      {plan.missed.length > 0 ? (
        <>
          <h3 id="missed-title">Missed visits</h3>
          <ul aria-labelledby="missed-title">
            {plan.missed.map((m) => (
              <li key={m.uuid}>
                {m.label}: {MISSED_TEXT[m.missed_by] ?? m.missed_by}
                {m.note ? ` (${m.note})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

interface Row { day: string; from: string; to: string }
const emptyRow = (): Row => ({ day: '', from: '09:00', to: '12:00' });

/** The tenant's windows: a London day and two times per row, up to the plan's maximum. */
export function WindowsEditor({ plan, onSave, busy }: { plan: Plan; onSave: (w: SpanInput[]) => Promise<void>; busy: boolean }) {
  const [rows, setRows] = useState<Row[]>(() => {
    const given = plan.windows.map((w) => ({ day: londonParts(w.starts_at).date, from: londonParts(w.starts_at).time, to: londonParts(w.ends_at).time }));
    return given.length > 0 ? given : [emptyRow()];
  });
  const set = (i: number, patch: Partial<Row>) => setRows((r) => r.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const windows = rows.filter((r) => r.day && r.from && r.to).map((r) => ({ starts_at: londonIso(r.day, r.from), ends_at: londonIso(r.day, r.to) }));
    void onSave(windows);
  };
  return (
    <form className="form visit-windows" onSubmit={submit} aria-labelledby="give-windows">
      <h3 id="give-windows">Tell us when you are in</h3>
      <p className="hint">
        Up to {plan.rules.max_windows} windows in the next {plan.rules.horizon_days} days, each {plan.rules.min_minutes / 60} to {plan.rules.max_hours} hours, London time.
        The contractor books a slot inside one.
      </p>
      {rows.map((r, i) => (
        <fieldset key={i} className="window-row">
          <legend>Window {i + 1}</legend>
          <div className="field">
            <label htmlFor={`w${i}-day`}>Day</label>
            <input id={`w${i}-day`} type="date" value={r.day} required onChange={(e) => set(i, { day: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={`w${i}-from`}>From</label>
            <input id={`w${i}-from`} type="time" value={r.from} required onChange={(e) => set(i, { from: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={`w${i}-to`}>To</label>
            <input id={`w${i}-to`} type="time" value={r.to} required onChange={(e) => set(i, { to: e.target.value })} />
          </div>
          {rows.length > 1 ? (
            <Button variant="secondary" onPress={() => setRows((x) => x.filter((_, j) => j !== i))} aria-label={`Remove window ${i + 1}`}>
              Remove
            </Button>
          ) : null}
        </fieldset>
      ))}
      <div className="actions">
        {rows.length < plan.rules.max_windows ? (
          <Button variant="secondary" onPress={() => setRows((x) => [...x, emptyRow()])}>
            Add a window
          </Button>
        ) : null}
        <Button type="submit" isDisabled={busy}>
          Save my windows
        </Button>
      </div>
    </form>
  );
}

/**
 * The contractor's free slots, one to pick: only those the tenant can book (inside the tenant's
 * windows when there are any; docs/tenant-reporting.md "Booking the visit"). A refused pick is
 * shown beside the button (`problem`); with windows given and no free slot inside them, says so.
 */
export function FreeSlotPicker({ plan, onPick, busy, problem = null }: { plan: Plan; onPick: (s: SpanInput) => Promise<void>; busy: boolean; problem?: ReactNode }) {
  const [chosen, setChosen] = useState<number | null>(null);
  if (plan.free_slots.length === 0) {
    if (plan.windows.length === 0) return null;
    return (
      <p className="hint">
        None of {plan.contractor_name ?? 'the contractor'}&apos;s free slots in the next two weeks falls inside your windows. {plan.contractor_name ?? 'The contractor'} can
        still book a time inside one, or you can give other windows.
      </p>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const s = chosen === null ? undefined : plan.free_slots[chosen];
    if (s) void onPick({ starts_at: s.starts_at, ends_at: s.ends_at });
  };
  return (
    <form className="form" onSubmit={submit}>
      <fieldset className="slot-list">
        <legend>
          Or pick one of 
          {plan.contractor_name ?? 'the contractor'}&apos;s free slots{plan.windows.length > 0 ? ' inside your windows' : ''}
        </legend>
        {plan.free_slots.slice(0, 12).map((s, i) => (
          <div key={s.starts_at + s.ends_at} className="slot-choice">
            <label className="choice">
              <input type="radio" name="free-slot" checked={chosen === i} onChange={() => setChosen(i)} /> {s.label}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="actions">
        <Button type="submit" isDisabled={busy || chosen === null}>
          Book this slot
        </Button>
      </div>
      {problem}
    </form>
  );
}

/** The contractor books a slot inside one of the tenant's windows. */
function OfferSlot({ plan, onBook, busy }: { plan: Plan; onBook: (s: SpanInput) => Promise<void>; busy: boolean }) {
  const [win, setWin] = useState(0);
  const w = plan.windows[win] ?? plan.windows[0]!;
  const [from, setFrom] = useState(() => londonParts(w.starts_at).time);
  const [to, setTo] = useState(() => londonParts(w.ends_at).time);
  const pickWindow = (i: number) => {
    setWin(i);
    setFrom(londonParts(plan.windows[i]!.starts_at).time);
    setTo(londonParts(plan.windows[i]!.ends_at).time);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const day = londonParts(w.starts_at).date;
    void onBook({ starts_at: londonIso(day, from), ends_at: londonIso(day, to) });
  };
  return (
    <form className="form" onSubmit={submit} aria-labelledby="offer-title">
      <h3 id="offer-title">Book a slot inside a window</h3>
      <fieldset className="slot-list">
        <legend>The tenant&apos;s window</legend>
        {plan.windows.map((x, i) => (
          <div key={x.uuid} className="slot-choice">
            <label className="choice">
              <input type="radio" name="window" checked={win === i} onChange={() => pickWindow(i)} /> {x.label}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="window-row">
        <div className="field">
          <label htmlFor="slot-from">Arrive from</label>
          <input id="slot-from" type="time" value={from} required onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="slot-to">Until</label>
          <input id="slot-to" type="time" value={to} required onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <Button type="submit" isDisabled={busy}>
        Book this slot
      </Button>
    </form>
  );
}

/** Records the booked visit as missed: the contractor for the tenant, the tenant for the contractor, staff either. */
function MissedVisit({ party, onRecord, busy }: { party: Party; onRecord: (by: 'tenant' | 'contractor', note: string) => Promise<void>; busy: boolean }) {
  const choices = party === 'contractor' ? ['tenant'] : party === 'tenant' ? ['contractor'] : ['tenant', 'contractor'];
  const [by, setBy] = useState(choices[0]!);
  const [note, setNote] = useState('');
  return (
    <form
      className="form"
      aria-labelledby="missed-form"
      onSubmit={(e) => {
        e.preventDefault();
        void onRecord(by as 'tenant' | 'contractor', note);
      }}
    >
      <h3 id="missed-form">The visit did not happen</h3>
      {choices.length > 1 ? (
        <div className="field">
          <label htmlFor="missed-by">Who missed it</label>
          <select id="missed-by" value={by} onChange={(e) => setBy(e.target.value)}>
            <option value="tenant">The tenant was not in (no access)</option>
            <option value="contractor">The contractor did not come (no-show)</option>
          </select>
        </div>
      ) : (
        <p>{by === 'tenant' ? 'Nobody was in to let you in.' : 'The contractor did not come.'}</p>
      )}
      <div className="field">
        <label htmlFor="missed-note">Note (optional)</label>
        <input id="missed-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      </div>
      <Button type="submit" variant="secondary" isDisabled={busy}>
        Record the missed visit
      </Button>
    </form>
  );
}

/** The visit section of the job page. */
export function VisitPanel({ jobUuid, party, onChanged, daySlot = null }: { jobUuid: string; party: Party; onChanged: () => void; daySlot?: DaySlot | null }) {
  const path = { params: { path: { uuid: jobUuid } } };
  const plan = useVisitPlan(jobUuid);
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  // Which form the last problem belongs to: a refused pick is shown beside its button.
  const [picking, setPicking] = useState(false);
  const p = plan.data;
  if (!p) return <ProblemMessage problem={plan.problem} onRetry={plan.reload} />;
  const after = (message: string) => {
    setDone(message);
    plan.reload();
    onChanged();
  };
  const bookable = p.status_id === ASSIGNED || p.status_id === SCHEDULED;
  const started = p.visit !== null && Date.parse(p.visit.starts_at) <= Date.now();
  return (
    <section aria-labelledby="visit-heading" className="visit">
      <h2 id="visit-heading">Visit</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <PlanSummary plan={p} daySlot={daySlot} />
      {picking ? null : <ProblemMessage problem={action.problem} />}
      {party === 'tenant' && BEFORE_WORK.includes(p.status_id) ? (
        <WindowsEditor
          key={p.windows.map((w) => w.uuid).join()}
          plan={p}
          busy={action.busy}
          onSave={(windows) =>
            action.run(async () => {
              setPicking(false);
              await api.PUT('/api/jobs/{uuid}/visit/windows', { ...path, body: { windows } });
              after('Your windows are saved. The contractor will book a slot inside one.');
            })
          }
        />
      ) : null}
      {party === 'tenant' && bookable && !p.visit ? (
        <FreeSlotPicker
          plan={p}
          busy={action.busy}
          problem={picking ? <ProblemMessage problem={action.problem} /> : null}
          onPick={(slot) =>
            action.run(async () => {
              setPicking(true);
              await api.POST('/api/jobs/{uuid}/visit/choice', { ...path, body: slot });
              after('Your visit is booked. The contractor has been told.');
            })
          }
        />
      ) : null}
      {party === 'contractor' && bookable && p.windows.length > 0 ? (
        <OfferSlot
          plan={p}
          busy={action.busy}
          onBook={(slot) =>
            action.run(async () => {
              await api.POST('/api/jobs/{uuid}/assignment/booking', { ...path, body: slot });
              after('The visit is booked. The tenant has been told.');
            })
          }
        />
      ) : null}
      {p.status_id === SCHEDULED && started ? (
        <MissedVisit
          party={party}
          busy={action.busy}
          onRecord={(by, note) =>
            action.run(async () => {
              await api.POST('/api/jobs/{uuid}/visit/missed', { ...path, body: { missed_by: by, ...(note.trim() ? { note: note.trim() } : {}) } });
              after('The missed visit is recorded.');
            })
          }
        />
      ) : null}
    </section>
  );
}

interface LinkView { agency_name: string; tenant_name: string; property: string | null; expires: string; plan: Plan }

/** A refused action on the tenant's link page, shown beside the form that sent it. */
function LinkProblem({ text }: { text: string }) {
  return (
    <div className="problem" role="alert">
      <p>{text}</p>
    </div>
  );
}

/** /visit?token=...: the tenant's signed link page (no account): windows or a free slot, once. */
export function VisitLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [view, setView] = useState<LinkView | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ text: string; on: 'windows' | 'choose' } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    void fetch(`/api/visits/link/${encodeURIComponent(token)}`).then(async (r) => {
      const body = (await r.json()) as { data?: LinkView; error?: string };
      if (r.ok) setView(body.data!);
      else setRefused(body.error ?? 'This link does not work.');
    });
  }, [token]);
  useEffect(() => {
    document.title = 'Book your visit · Caretaker';
    load();
  }, [load]);
  const act = async (payload: Record<string, unknown>) => {
    setBusy(true);
    setProblem(null);
    const r = await fetch(`/api/visits/link/${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const body = (await r.json()) as { data?: LinkView; error?: string; message?: string };
    setBusy(false);
    if (r.ok) {
      setView(body.data!);
      setDone(body.message ?? 'Thank you.');
    } else if (r.status === 400) setProblem({ text: body.error ?? 'That did not work.', on: payload.action === 'choose' ? 'choose' : 'windows' });
    else if (r.status === 409 && payload.action === 'choose') {
      // The slot was taken meanwhile: say so beside the button and offer the slots still free.
      setProblem({ text: body.error ?? 'That slot was just taken: pick another.', on: 'choose' });
      load();
    } else setRefused(body.error ?? 'This link does not work.');
  };
  return (
    <main id="main" className="survey">
      <h1>Book your visit</h1>
      {refused ? <p role="alert">{refused}</p> : null}
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {view && !refused ? (
        <>
          <p>
            {view.agency_name}: <strong>{view.plan.title}</strong> ({view.plan.reference}){view.property ? ` at ${view.property}` : ''}
            {view.plan.contractor_name ? `, by ${view.plan.contractor_name}` : ''}.
          </p>
          <PlanSummary plan={view.plan} daySlot={null} />
          {!done ? (
            <>
              <WindowsEditor plan={view.plan} busy={busy} onSave={(windows) => act({ action: 'windows', windows })} />
              {problem?.on === 'windows' ? <LinkProblem text={problem.text} /> : null}
              {!view.plan.visit ? (
                <FreeSlotPicker
                  plan={view.plan}
                  busy={busy}
                  problem={problem?.on === 'choose' ? <LinkProblem text={problem.text} /> : null}
                  onPick={(s) => act({ action: 'choose', ...s })}
                />
              ) : null}
              <p className="hint">This link works once, until {view.expires}.</p>
            </>
          ) : null}
        </>
      ) : null}
    </main>
  );
}
