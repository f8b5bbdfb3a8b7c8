/**
 * /setup, the agency's lists and rules in the console (docs/console.md "The agency's office"):
 * trades (GET/POST /api/contractors/trades, PUT .../{id}), visit slots (GET/POST
 * /api/jobs/time-ranges, PUT/DELETE .../{id}), the tenant reporting settings and on-call contacts
 * (GET/PUT /api/reporting/settings, GET /api/reporting/on-call, PUT .../{branch_uuid}), the
 * recharge fee (GET/PUT /api/recharges/settings), the Awaab's Law settings (GET/PUT
 * /api/hazards/settings, GET /api/hazards/categories); and, for the Account page, one's own
 * dashboard's look (GET/PUT /api/users/appearance, POST/DELETE .../banner); and the workflows of
 * the connected workflow engine (GET /api/workflow-engine/workflows, docs/workflow-engine.md).
 * Each section shows only to whoever holds its key.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { poundsToPence } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, formatPence, PageTitle, ProblemMessage, SubmitRow, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import '../people-forms.css';

type Trade = { ID: number; code: string; name: string; scope: string; retired_at: string | null };
type Slot = { ID: number; range_label: string; starts_at: string | null; ends_at: string | null; sort_order: number; agency_uuid: string | null };

/** The page: every section the caller may see. */
export function SetupPage() {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  return (
    <>
      <PageTitle>Lists and rules</PageTitle>
      <p className="hint">The agency's own lists: the trades its contractors work in, the visit slots offered to tenants, and the rules of reporting and recharges.</p>
      {can('api.contractors.view') ? <TradesSection canManage={can('api.contractors.trades.manage')} /> : null}
      {can('api.jobs.time-ranges.manage') ? <SlotsSection canManage={can('api.jobs.time-ranges.admin')} /> : null}
      {can('api.reporting.flows.manage') ? <ReportingSection /> : null}
      {can('api.recharges.view') ? <RechargeSection canManage={can('api.recharges.settings.manage')} /> : null}
      {can('api.hazards.view') ? <HazardSection canManage={can('api.hazards.settings.manage')} /> : null}
      {can('page.settings.configuration') ? <WorkflowsSection /> : null}
    </>
  );
}

function TradesSection({ canManage }: { canManage: boolean }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const trades = useLoad(['trades', 'all'], async () => (await api.GET('/api/contractors/trades', { params: { query: { include_retired: true } } })).data!.data as Trade[]);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    void action.run(async () => {
      await api.POST('/api/contractors/trades', { body: { name } });
      setDone(`"${name}" added. Give it to contractors on their records.`);
      setFormKey((k) => k + 1);
      trades.reload();
    });
  };
  const rename = (t: Trade) =>
    ask({
      title: `Rename "${t.name}"`,
      confirmLabel: 'Save name',
      text: { label: 'New name', required: true, initial: t.name },
      onConfirm: (name) =>
        void action.run(async () => {
          await api.PUT('/api/contractors/trades/{id}', { params: { path: { id: t.ID } }, body: { name } });
          setDone(`"${t.name}" is now "${name}".`);
          trades.reload();
        }),
    });
  const retire = (t: Trade) =>
    ask({
      title: t.retired_at ? `Bring back "${t.name}"?` : `Retire "${t.name}"?`,
      body: t.retired_at ? 'New jobs can use it again.' : 'New jobs cannot use it; the jobs and contractors that have it keep it.',
      confirmLabel: t.retired_at ? 'Bring it back' : 'Retire trade',
      danger: !t.retired_at,
      onConfirm: () =>
        void action.run(async () => {
          await api.PUT('/api/contractors/trades/{id}', { params: { path: { id: t.ID } }, body: { retired: !t.retired_at } });
          setDone(t.retired_at ? `"${t.name}" is back.` : `"${t.name}" retired.`);
          trades.reload();
        }),
    });
  const columns: Column<Trade>[] = [
    { header: 'Trade', cell: (t) => t.name },
    { header: 'Kind', key: true, cell: (t) => (t.scope === 'platform' ? 'Standard' : 'Your own') },
    { header: 'State', key: true, cell: (t) => (t.retired_at ? 'Retired' : 'In use') },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      key: true,
      cell: (t) =>
        t.scope === 'platform' ? null : (
          <div className="button-row">
            <Button variant="secondary" aria-label={`Rename: ${t.name}`} onPress={() => rename(t)}>
              Rename
            </Button>
            <Button variant={t.retired_at ? 'secondary' : 'danger'} aria-label={`${t.retired_at ? 'Bring back' : 'Retire'}: ${t.name}`} onPress={() => retire(t)}>
              {t.retired_at ? 'Bring back' : 'Retire'}
            </Button>
          </div>
        ),
    });
  return (
    <Section id="setup-trades" title="Trades">
      <ProblemMessage problem={action.problem ?? trades.problem} onRetry={trades.reload} />
      <Notice text={done} />
      {trades.data ? <DataTable label="Trades" columns={columns} rows={trades.data} rowKey={(t) => String(t.ID)} empty={<p>No trades yet. Add the first below.</p>} /> : <p className="loading">Loading…</p>}
      {canManage ? (
        <form key={formKey} className="form inline" onSubmit={add} aria-label="Add a trade">
          <Labelled label="New trade" required>
            {(id) => <input id={id} name="name" required maxLength={100} />}
          </Labelled>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy}>
              Add trade
            </Button>
          </div>
        </form>
      ) : null}
      {dialog}
    </Section>
  );
}

function SlotsSection({ canManage }: { canManage: boolean }) {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [editing, setEditing] = useState<Slot | null>(null);
  const [formKey, setFormKey] = useState(0);
  const slots = useLoad(['jobs', 'time-ranges'], async () => (await api.GET('/api/jobs/time-ranges', { params: { query: { action: 'list' } } })).data!.data as Slot[]);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const body = {
      range_label: String(f.get('range_label') ?? '').trim(),
      starts_at: String(f.get('starts_at') ?? '') || null,
      ends_at: String(f.get('ends_at') ?? '') || null,
    };
    void action.run(async () => {
      if (editing) await api.PUT('/api/jobs/time-ranges/{id}', { params: { path: { id: editing.ID } }, body });
      else await api.POST('/api/jobs/time-ranges', { body: { ...body, sort_order: (slots.data?.length ?? 0) + 1 } });
      setDone(`"${body.range_label}" saved.`);
      setEditing(null);
      setFormKey((k) => k + 1);
      slots.reload();
    });
  };
  const remove = (s: Slot) =>
    ask({
      title: `Delete the slot "${s.range_label}"?`,
      body: 'Visits already booked in it keep their times.',
      confirmLabel: 'Delete slot',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/jobs/time-ranges/{id}', { params: { path: { id: s.ID } } });
          setDone(`"${s.range_label}" deleted.`);
          slots.reload();
        }),
    });
  const hhmm = (t: string | null) => (t ? t.slice(0, 5) : '');
  const columns: Column<Slot>[] = [
    { header: 'Slot', cell: (s) => s.range_label },
    { header: 'Times', key: true, cell: (s) => (s.starts_at && s.ends_at ? `${hhmm(s.starts_at)} to ${hhmm(s.ends_at)}` : 'no set times') },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      key: true,
      cell: (s) =>
        s.agency_uuid ? (
          <div className="button-row">
            <Button variant="secondary" aria-label={`Edit: ${s.range_label}`} onPress={() => setEditing(s)}>
              Edit
            </Button>
            <Button variant="danger" aria-label={`Delete: ${s.range_label}`} onPress={() => remove(s)}>
              Delete
            </Button>
          </div>
        ) : (
          'Standard'
        ),
    });
  return (
    <Section id="setup-slots" title="Visit slots">
      <ProblemMessage problem={action.problem ?? slots.problem} onRetry={slots.reload} />
      <Notice text={done} />
      {slots.data ? <DataTable label="Visit slots" columns={columns} rows={slots.data} rowKey={(s) => String(s.ID)} empty={<p>No slots yet. Add "Morning, 08:00 to 12:00" and the others below.</p>} /> : null}
      {canManage ? (
        <form key={`${formKey}-${editing?.ID ?? 'new'}`} className="form inline" onSubmit={save} aria-label={editing ? 'Change the slot' : 'Add a slot'}>
          <Labelled label="Slot name" required>
            {(id) => <input id={id} name="range_label" required maxLength={100} defaultValue={editing?.range_label ?? ''} />}
          </Labelled>
          <Labelled label="From">{(id) => <input id={id} name="starts_at" type="time" defaultValue={hhmm(editing?.starts_at ?? null)} />}</Labelled>
          <Labelled label="To">{(id) => <input id={id} name="ends_at" type="time" defaultValue={hhmm(editing?.ends_at ?? null)} />}</Labelled>
          <SubmitRow label={editing ? 'Save slot' : 'Add slot'} busy={action.busy} onCancel={editing ? () => setEditing(null) : undefined} />
        </form>
      ) : null}
      {dialog}
    </Section>
  );
}

type OnCall = { branch_uuid: string; branch_name: string; name: string | null; phone: string | null; email: string | null };

function ReportingSection() {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const settings = useLoad(['reporting', 'settings'], async () => (await api.GET('/api/reporting/settings')).data!.data);
  const onCall = useLoad(['reporting', 'on-call'], async () => (await api.GET('/api/reporting/on-call')).data!.data as OnCall[]);
  const saveSettings = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void action.run(async () => {
      await api.PUT('/api/reporting/settings', { body: { recall_days: Number(f.get('recall_days')), survey_link_days: Number(f.get('survey_link_days')) } });
      setDone('Reporting settings saved.');
      settings.reload();
    });
  };
  const saveOnCall = (branch: string) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void action.run(async () => {
      const { data } = await api.PUT('/api/reporting/on-call/{branch_uuid}', {
        params: { path: { branch_uuid: branch } },
        body: { name: String(f.get('name') ?? '').trim(), phone: String(f.get('phone') ?? '').trim(), email: String(f.get('email') ?? '').trim() },
      });
      setDone(`On call for ${data!.data.branch_name}: ${data!.data.name}.`);
      onCall.reload();
    });
  };
  return (
    <Section id="setup-reporting" title="Tenant reporting">
      <ProblemMessage problem={action.problem ?? settings.problem ?? onCall.problem} onRetry={settings.reload} />
      <Notice text={done} />
      {settings.data ? (
        <form className="form inline" onSubmit={saveSettings} aria-label="Reporting settings">
          <Labelled label="A repair is a recall within (days)" hint="A tenant reporting the same trade again within these days is offered a recall.">
            {(id, d) => <input id={id} name="recall_days" type="number" min={1} max={365} required defaultValue={settings.data!.recall_days} aria-describedby={d} />}
          </Labelled>
          <Labelled label="Survey links work for (days)">
            {(id) => <input id={id} name="survey_link_days" type="number" min={1} max={365} required defaultValue={settings.data!.survey_link_days} />}
          </Labelled>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy}>
              Save reporting settings
            </Button>
          </div>
        </form>
      ) : null}
      <h3>Out of hours, on call</h3>
      {onCall.data?.length === 0 ? <p className="empty-state">No branch yet. Add one on Branches.</p> : null}
      {(onCall.data ?? []).map((o) => (
        <form key={o.branch_uuid} className="form inline" onSubmit={saveOnCall(o.branch_uuid)} aria-label={`On call for ${o.branch_name}`}>
          <p>
            <strong>{o.branch_name}</strong>
          </p>
          <Labelled label="Name" required>
            {(id) => <input id={id} name="name" required maxLength={200} defaultValue={o.name ?? ''} />}
          </Labelled>
          <Labelled label="Phone" required>
            {(id) => <input id={id} name="phone" type="tel" required maxLength={40} defaultValue={o.phone ?? ''} />}
          </Labelled>
          <Labelled label="E-mail" required>
            {(id) => <input id={id} name="email" type="email" required maxLength={254} defaultValue={o.email ?? ''} />}
          </Labelled>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy} aria-label={`Save on call for ${o.branch_name}`}>
              Save
            </Button>
          </div>
        </form>
      ))}
    </Section>
  );
}

function RechargeSection({ canManage }: { canManage: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const settings = useLoad(['recharges', 'settings'], async () => (await api.GET('/api/recharges/settings')).data!.data);
  const s = settings.data;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const mode = String(f.get('fee_mode')) as 'none' | 'percent' | 'fixed';
    const pct = Math.round(Number(f.get('fee_percent') || 0) * 100);
    const fixed = poundsToPence(String(f.get('fee_fixed') || '0')) ?? 0;
    void action.run(async () => {
      await api.PUT('/api/recharges/settings', { body: { fee_mode: mode, fee_percent_bp: pct, fee_fixed_pence: fixed } });
      setDone('Recharge fee saved.');
      settings.reload();
    });
  };
  return (
    <Section id="setup-recharges" title="Recharges to landlords">
      <ProblemMessage problem={action.problem ?? settings.problem} onRetry={settings.reload} />
      <Notice text={done} />
      {s ? (
        canManage ? (
          <form className="form inline" onSubmit={save} aria-label="Recharge fee">
            <Labelled label="Your fee on each recharge">
              {(id) => (
                <select id={id} name="fee_mode" defaultValue={s.fee_mode}>
                  <option value="none">No fee</option>
                  <option value="percent">A share of the cost</option>
                  <option value="fixed">A fixed amount</option>
                </select>
              )}
            </Labelled>
            <Labelled label="Share (%)">{(id) => <input id={id} name="fee_percent" inputMode="decimal" defaultValue={String(s.fee_percent_bp / 100)} />}</Labelled>
            <Labelled label="Fixed amount (£)">{(id) => <input id={id} name="fee_fixed" inputMode="decimal" defaultValue={(s.fee_fixed_pence / 100).toFixed(2)} />}</Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Save recharge fee
              </Button>
            </div>
          </form>
        ) : (
          <p>{s.fee_mode === 'none' ? 'No fee is added.' : s.fee_mode === 'percent' ? `${s.fee_percent_bp / 100} % of the cost is added.` : `${formatPence(s.fee_fixed_pence)} is added.`}</p>
        )
      ) : null}
    </Section>
  );
}

function HazardSection({ canManage }: { canManage: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const settings = useLoad(['hazards', 'settings'], async () => (await api.GET('/api/hazards/settings')).data!.data);
  const categories = useLoad(['hazards', 'categories'], async () => (await api.GET('/api/hazards/categories')).data!.data);
  const s = settings.data;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void action.run(async () => {
      await api.PUT('/api/hazards/settings', { body: { works_working_days: Number(f.get('works_working_days')), private_rented_policy: f.get('private_rented_policy') === 'on' } });
      setDone("Awaab's Law settings saved.");
      settings.reload();
    });
  };
  return (
    <Section id="setup-hazards" title="Damp, mould and other hazards (Awaab's Law)">
      <ProblemMessage problem={action.problem ?? settings.problem} onRetry={settings.reload} />
      <Notice text={done} />
      {s ? (
        <form className="form inline" onSubmit={save} aria-label="Awaab's Law settings">
          <Labelled label="Works finished within (working days)">
            {(id) => <input id={id} name="works_working_days" type="number" min={1} max={365} disabled={!canManage} defaultValue={s.works_working_days} />}
          </Labelled>
          <label className="checkbox-native">
            <input type="checkbox" name="private_rented_policy" disabled={!canManage} defaultChecked={s.private_rented_policy} /> Keep the same clocks for privately rented homes
          </label>
          {canManage ? (
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Save hazard settings
              </Button>
            </div>
          ) : null}
        </form>
      ) : null}
      {categories.data ? (
        <details>
          <summary>The {categories.data.length} kinds of hazard</summary>
          <ul>
            {categories.data.map((c) => (
              <li key={c.code}>
                {c.name} ({c.group})
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Section>
  );
}

/** Your own dashboard's background colour and banner (Account page). */
export function AppearanceSection() {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const look = useLoad(['appearance'], async () => (await api.GET('/api/users/appearance', { params: { query: {} } })).data! as { dashboard_bg_custom: string; banner: { size_bytes: number } | null });
  const saveColour = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const colour = String(new FormData(e.currentTarget).get('colour') ?? '');
    void action.run(async () => {
      await api.PUT('/api/users/appearance', { body: { dashboard_bg_custom: colour || null } });
      setDone('Colour saved.');
      look.reload();
    });
  };
  const upload = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = (form.elements.namedItem('banner') as HTMLInputElement).files?.[0];
    if (!file) return action.setProblem({ message: 'Choose a picture first (PNG, JPEG or WebP).', field: 'file', retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      await api.POST('/api/users/appearance/banner', { body: { file } });
      setDone('Banner uploaded.');
      form.reset();
      look.reload();
    });
  };
  const removeBanner = () =>
    ask({
      title: 'Remove the banner?',
      confirmLabel: 'Remove banner',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/users/appearance/banner', {});
          setDone('Banner removed.');
          look.reload();
        }),
    });
  const l = look.data;
  return (
    <Section id="setup-look" title="Your dashboard's look">
      <ProblemMessage problem={action.problem ?? look.problem} onRetry={look.reload} />
      <Notice text={done} />
      {l ? (
        <>
          <form className="form inline" onSubmit={saveColour} aria-label="Background colour">
            <Labelled label="Background colour">{(id) => <input id={id} name="colour" type="color" defaultValue={/^#[0-9a-f]{6}$/i.test(l.dashboard_bg_custom) ? l.dashboard_bg_custom : '#ffffff'} />}</Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Save colour
              </Button>
            </div>
          </form>
          <p>{l.banner ? `A banner is set (${Math.round(l.banner.size_bytes / 1024)} kB).` : 'No banner yet. Upload your logo or a picture of your office.'}</p>
          <form className="form inline" onSubmit={upload} aria-label="Banner">
            <Labelled label="Banner picture">{(id) => <input id={id} name="banner" type="file" accept="image/png,image/jpeg,image/webp" />}</Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Upload banner
              </Button>
              {l.banner ? (
                <Button variant="danger" isDisabled={action.busy} onPress={removeBanner}>
                  Remove banner
                </Button>
              ) : null}
            </div>
          </form>
        </>
      ) : null}
      {dialog}
    </Section>
  );
}

/**
 * The status and message of a workflow engine failure thrown by the typed client (502 or 503,
 * docs/workflow-engine.md "Answers"), or null for any other error.
 */
function engineFailure(e: unknown): { status: number; message: string } | null {
  if (typeof e !== 'object' || e === null) return null;
  const { status, message } = e as { status?: unknown; message?: unknown };
  return (status === 502 || status === 503) && typeof message === 'string' && message ? { status, message } : null;
}

type Workflow = { id: string; name: string; active: boolean; updated_at: string | null; tags: Array<{ id: string; name: string }> };

/**
 * The workflows of the connected workflow engine (n8n; GET /api/workflow-engine/workflows
 * `action=list`, docs/workflow-engine.md): name, on or off, tags and last change, 50 at a time
 * with "Show more" (the answer's `next_cursor`). The engine belongs to the installation, so every
 * administrator sees the same list; when none is configured an empty state says so with the API's
 * message, and any other failure shows the API's problem with "Try again".
 */
export function WorkflowsSection() {
  const [pages, setPages] = useState<Workflow[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const more = useAction();
  const first = useLoad(['workflow-engine', 'workflows'], async () => {
    try {
      const { data } = await api.GET('/api/workflow-engine/workflows', { params: { query: { action: 'list', limit: 50 } } });
      const d = data!.data;
      return { workflows: 'workflows' in d ? d.workflows : [], next_cursor: 'workflows' in d ? d.next_cursor : null, engine: null };
    } catch (e) {
      // The engine's own failures (503 not configured, 502 unreachable or refusing) are told in the
      // API's words, which the console's generic "server could not complete this" would hide.
      const engine = engineFailure(e);
      if (engine) return { workflows: [], next_cursor: null, engine };
      throw e;
    }
  });
  const engine = first.data?.engine ?? null;
  const next = cursor ?? (pages.length === 0 ? (first.data?.next_cursor ?? null) : null);
  const showMore = () =>
    void more.run(async () => {
      const { data } = await api.GET('/api/workflow-engine/workflows', { params: { query: { action: 'list', limit: 50, cursor: next! } } });
      const d = data!.data;
      if (!('workflows' in d)) return;
      setPages((p) => [...p, d.workflows]);
      setCursor(d.next_cursor ?? '');
    });
  const rows = [...(first.data?.workflows ?? []), ...pages.flat()];
  const columns: Column<Workflow>[] = [
    { header: 'Workflow', cell: (w) => w.name },
    { header: 'Runs', cell: (w) => (w.active ? 'On' : 'Off'), key: true },
    { header: 'Tags', cell: (w) => w.tags.map((t) => t.name).join(', ') || 'None', key: true },
    { header: 'Last changed', cell: (w) => (w.updated_at ? formatLondonDate(w.updated_at) : 'Not known'), key: true },
  ];
  return (
    <Section id="workflows" title="Workflows">
      <p className="hint">The automations of the workflow engine connected to Caretaker (n8n), such as telling a contractor about a new job. They are changed in the engine itself.</p>
      <ProblemMessage problem={first.problem} onRetry={first.reload} />
      {engine?.status === 503 && engine.message === 'Workflow engine not configured' ? (
        <p className="empty-state">No workflow engine is connected to this installation (the API answers "{engine.message}"). Whoever runs Caretaker connects n8n; its workflows then show here.</p>
      ) : engine ? (
        <ProblemMessage problem={{ message: engine.message, field: null, retry: true, retryAfterSeconds: null, status: engine.status }} onRetry={first.reload} />
      ) : null}
      {first.data && !engine && rows.length === 0 ? <p className="empty-state">No workflows yet. Create one in the workflow engine; it shows here.</p> : null}
      {rows.length > 0 ? <DataTable label="Workflows of the engine" columns={columns} rows={rows} rowKey={(w) => w.id} /> : null}
      <ProblemMessage problem={more.problem} />
      {next ? (
        <div className="button-row">
          <Button variant="secondary" isDisabled={more.busy} onPress={showMore}>
            Show more workflows
          </Button>
        </div>
      ) : null}
    </Section>
  );
}
