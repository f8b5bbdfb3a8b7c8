/**
 * Planned maintenance on the compliance page (docs/compliance.md "Planned maintenance", "In the
 * console"): the live schedules with their recurrence in words ("every 12 months"), lead time,
 * contractor and next due dates; for holders of `api.compliance.manage` a form to create one
 * (POST /api/compliance/schedules) or edit one (PUT, sending only the changed fields, so an
 * unchanged rule keeps its start), and delete with a confirmation (DELETE retires it: no more
 * jobs, the raised ones stay). Each title links to the schedule's own page (compliance-extras.tsx).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { buildRule, leadWords, londonToday, longDate, RECUR_UNITS, ruleParts, ruleWords, type RecurUnit } from '../logic/recurrence.ts';
import { useUrlTable } from '../logic/url-table.ts';
import type { ComplianceType, Contractor, MaintenanceSchedule } from '../types.ts';
import { Button, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { ContractorOptions, Labelled, useFocusOnOpen } from './compliance-forms.tsx';
import { addressLabel, PropertyPicker } from './property-picker.tsx';

/**
 * The schedules section (the first 200 schedules, as the API gives them); its table sorts and pages
 * (25 a page) in the browser from the URL's `schedules-sort`, `schedules-order` and `schedules-page`.
 */
export function SchedulesSection({ types, contractors, canManage }: { types: ComplianceType[]; contractors: Contractor[]; canManage: boolean }) {
  const table = useUrlTable(['schedule', 'contractor', 'due'], 'schedules');
  const list = useLoad(
    ['compliance', 'schedules', 'first', 200],
    async () => (await api.GET('/api/compliance/schedules', { params: { query: { limit: 200, offset: 0 } } })).data!,
  );
  const [editing, setEditing] = useState<MaintenanceSchedule | 'new' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const finish = (message: string) => {
    setEditing(null);
    setDone(message);
    list.reload();
  };
  const remove = (s: MaintenanceSchedule) =>
    ask({
      title: `Delete the schedule "${s.title}"?`,
      body: 'No more jobs will be raised for it. Jobs it has already raised, and their certificates, stay.',
      confirmLabel: 'Delete schedule',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          setDone(null);
          await api.DELETE('/api/compliance/schedules/{uuid}', { params: { path: { uuid: s.uuid } } });
          finish(`Schedule "${s.title}" deleted.`);
        }),
    });
  const columns: Column<MaintenanceSchedule>[] = [
    { header: 'Schedule', sortKey: 'schedule', sortValue: (s) => s.title, cell: (s) => <Link to={`/compliance/schedules/${s.uuid}`}>{s.title}</Link> },
    { header: 'How often', cell: (s) => `${ruleWords(s.rrule)}, ${leadWords(s.lead_days)}`, key: true },
    { header: 'Properties', cell: (s) => s.address ?? `Every property with a ${s.type_name ?? s.type} item`, key: true },
    { header: 'Contractor', sortKey: 'contractor', sortValue: (s) => s.contractor_name, cell: (s) => s.contractor_name ?? 'Not assigned', key: true },
    {
      header: 'Next due (job raised)',
      key: true,
      sortKey: 'due',
      sortValue: (s) => s.next[0]?.due_on,
      cell: (s) => (
        <ul className="plain-list">
          {s.next.map((n) => (
            <li key={n.due_on}>
              {n.due_on_text} (raised {longDate(n.raise_on)})
            </li>
          ))}
        </ul>
      ),
    },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      key: true,
      cell: (s) => (
        <span className="button-row">
          <Button variant="secondary" aria-label={`Edit: ${s.title}`} isDisabled={action.busy} onPress={() => (setDone(null), setEditing(s))}>
            Edit
          </Button>
          <Button variant="danger" aria-label={`Delete: ${s.title}`} isDisabled={action.busy} onPress={() => remove(s)}>
            Delete
          </Button>
        </span>
      ),
    });
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="maintenance-schedules">
      <h2 id="maintenance-schedules">Planned maintenance</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <ProblemMessage problem={action.problem} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <p className="count" aria-live="polite">
        {list.loading ? 'Loading…' : list.data?.count === 1 ? '1 schedule' : `${list.data?.count ?? 0} schedules`}
      </p>
      {!list.loading && !list.problem && rows.length === 0 ? (
        <p className="empty-state">No schedules yet. Add one to raise the gas safety check a month before it is due.</p>
      ) : null}
      {rows.length > 0 ? <DataTable label="Planned maintenance schedules" columns={columns} rows={rows} rowKey={(s) => s.uuid} {...table} /> : null}
      {canManage && editing === null ? (
        <div className="button-row">
          <Button onPress={() => (setDone(null), setEditing('new'))}>Add a schedule</Button>
        </div>
      ) : null}
      {canManage && editing !== null ? (
        <ScheduleForm key={editing === 'new' ? 'new' : editing.uuid} schedule={editing === 'new' ? null : editing} types={types} contractors={contractors} onDone={finish} onCancel={() => setEditing(null)} />
      ) : null}
      {dialog}
    </section>
  );
}

/** Create (schedule null) or edit form of a schedule. */
function ScheduleForm({
  schedule,
  types,
  contractors,
  onDone,
  onCancel,
}: {
  schedule: MaintenanceSchedule | null;
  types: ComplianceType[];
  contractors: Contractor[];
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const action = useAction();
  const [property, setProperty] = useState<{ uuid: string; label: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const parts = schedule ? ruleParts(schedule.rrule) : { every: 12, unit: 'months' as RecurUnit, more: false };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const get = (k: string) => String(f.get(k) ?? '').trim();
    const title = get('title');
    const every = Number(get('every'));
    const unit = get('unit') as RecurUnit;
    const startsOn = get('starts_on');
    const lead = Number(get('lead_days'));
    const contractor = get('contractor_uuid');
    const type = get('type');
    const found: Record<string, string> = {};
    if (!title) found.title = 'Say what the work is, such as "Annual gas safety check".';
    if (!Number.isInteger(every) || every < 1 || every > 99) found.every = 'Enter a whole number from 1 to 99.';
    if (!startsOn) found.starts_on = 'Enter the date it is first due.';
    if (get('lead_days') === '' || !Number.isInteger(lead) || lead < 0 || lead > 365) found.lead_days = 'Enter a number of days from 0 to 365.';
    if (!schedule && !property && !type) found.property = 'Pick a property, or a compliance item to cover every property that has it.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const rrule = buildRule(every, unit);
    void action.run(async () => {
      if (schedule) {
        const ruleChanged = every !== parts.every || unit !== parts.unit;
        const body = {
          ...(title !== schedule.title ? { title } : {}),
          ...(ruleChanged ? { rrule } : {}),
          ...(startsOn !== schedule.starts_on ? { starts_on: startsOn } : {}),
          ...(lead !== schedule.lead_days ? { lead_days: lead } : {}),
          ...((contractor || null) !== schedule.contractor_uuid ? { contractor_uuid: contractor || null } : {}),
        };
        if (Object.keys(body).length === 0) return onDone('Nothing was changed.');
        await api.PUT('/api/compliance/schedules/{uuid}', { params: { path: { uuid: schedule.uuid } }, body: body });
        onDone(`Schedule "${title}" saved: ${ruleWords(rrule)}, ${leadWords(lead)}.`);
      } else {
        const body = {
          title,
          rrule,
          starts_on: startsOn,
          lead_days: lead,
          ...(property ? { address_uuid: property.uuid } : {}),
          ...(type ? { type } : {}),
          ...(contractor ? { contractor_uuid: contractor } : {}),
        };
        const { data } = await api.POST('/api/compliance/schedules', { body: body });
        const next = data!.data.next[0];
        onDone(`Schedule "${title}" added${next ? `: first due ${next.due_on_text}, its job raised ${longDate(next.raise_on)}` : ''}.`);
      }
    });
  };
  const err = (k: string) => errors[k] ?? null;
  return (
    <section className="what-next" aria-labelledby="schedule-form">
      <h3 id="schedule-form" ref={heading} tabIndex={-1}>{schedule ? `Edit "${schedule.title}"` : 'Add a schedule'}</h3>
      <form className="form" onSubmit={submit} noValidate>
        <Labelled label="What the work is" required error={err('title')}>
          {(id, d) => <input id={id} name="title" defaultValue={schedule?.title ?? ''} maxLength={200} aria-invalid={Boolean(err('title')) || undefined} aria-describedby={d} />}
        </Labelled>
        {schedule ? (
          <p className="hint">For: {schedule.address ?? `every property with a ${schedule.type_name ?? schedule.type} item`}</p>
        ) : (
          <>
            <PropertyPicker
              label="One property"
              required={false}
              description="Leave empty to cover every property that has the compliance item chosen below."
              problem={err('property')}
              onChange={(a) => setProperty(a ? { uuid: a.uuid, label: addressLabel(a) } : null)}
            />
            <Labelled label="Compliance item it renews" hint="Optional: the job's certificate then renews this item.">
              {(id, d) => (
                <select id={id} name="type" defaultValue="" aria-describedby={d}>
                  <option value="">None (general maintenance)</option>
                  {types
                    .filter((t) => !t.retired_at)
                    .map((t) => (
                      <option key={t.code} value={t.code}>
                        {t.name}
                      </option>
                    ))}
                </select>
              )}
            </Labelled>
          </>
        )}
        <fieldset className="recur">
          <legend>How often</legend>
          <Labelled label="Every" error={err('every')}>
            {(id, d) => <input id={id} name="every" type="number" min={1} max={99} defaultValue={parts.every} inputMode="numeric" aria-invalid={Boolean(err('every')) || undefined} aria-describedby={d} />}
          </Labelled>
          <Labelled label="Unit">
            {(id) => (
              <select id={id} name="unit" defaultValue={parts.unit}>
                {Object.keys(RECUR_UNITS).map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
          {parts.more ? <p className="hint">The current rule says more ({schedule?.rrule}); it is kept unless you change how often.</p> : null}
        </fieldset>
        <Labelled label="First due on" required error={err('starts_on')} hint="Later dates follow from it.">
          {(id, d) => <input id={id} name="starts_on" type="date" defaultValue={schedule?.starts_on ?? londonToday()} aria-invalid={Boolean(err('starts_on')) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="Raise the job this many days before" required error={err('lead_days')}>
          {(id, d) => <input id={id} name="lead_days" type="number" min={0} max={365} defaultValue={schedule?.lead_days ?? 30} inputMode="numeric" aria-invalid={Boolean(err('lead_days')) || undefined} aria-describedby={d} />}
        </Labelled>
        <Labelled label="Contractor">
          {(id) => (
            <select id={id} name="contractor_uuid" defaultValue={schedule?.contractor_uuid ?? ''}>
              <ContractorOptions contractors={contractors} none="Not assigned" />
            </select>
          )}
        </Labelled>
        <ProblemMessage problem={action.problem} />
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            {schedule ? 'Save schedule' : 'Add schedule'}
          </Button>
          <Button variant="secondary" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
