/**
 * /sla-rules: the branch SLA rules and the agency's SLA settings in the console (docs/console.md
 * "SLA rules and message templates"; the rules' meaning: docs/sla-rules.md). The rules of the
 * branches the caller reaches in a table, each also in words ("Priority 1 (Emergency) jobs ... must
 * be attended within 4 hours of being reported"); a form adds a rule or changes the one picked
 * (POST /api/agents/branch-sla-response-times), a rule is deleted after a confirmation (DELETE);
 * administrators also change the UK region, the at-risk share and the office hours
 * (GET/POST /api/sla/settings). No due time is worked out here: the API has no endpoint that
 * previews one, and business hours and bank holidays are the API's (a job's page shows its clocks).
 */
import { useRef, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { useUrlTable } from '../logic/url-table.ts';
import { allowanceWords, CALENDAR_LABELS, calendarOf, CALENDARS, countsHours, DATE_FIELD_WORDS, dateFieldOf, ruleSentence } from '../logic/sla-words.ts';
import { useSession } from '../session.tsx';
import type { Branch, RequestBody, SlaRule, SlaSettings } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Loaded, Notice, SelectField, splitProblem } from './people-forms.tsx';
import '../people-forms.css';

type Named = { ID: number; name: string };

/** What the rule form and the table need besides the rules: branches, statuses and job types. */
interface Options {
  branches: Branch[];
  statuses: Named[];
  types: Named[];
}

const RULE_FIELDS = [
  'branch_uuid',
  'job_priority',
  'job_type_id',
  'job_status_from_id',
  'job_status_to_id',
  'date_field_to_compare',
  'date_field_to_track',
  'calendar',
  'allowance',
  'description',
];

/** The rule in words, with the names of its statuses and job type. */
type RuleShape = Pick<SlaRule, 'minimum_response_days' | 'response_hours' | 'job_priority' | 'job_type_id' | 'job_status_from_id' | 'job_status_to_id'> & {
  calendar: string;
  date_field_to_compare: string;
  date_field_to_track: string;
};

function sentenceOf(rule: RuleShape, branch: string, o: Options): string {
  const name = (list: Named[], id: number | null) => list.find((x) => x.ID === id)?.name ?? (id === null ? null : `#${id}`);
  return ruleSentence(rule, {
    branch,
    priority: rule.job_priority,
    priorityName: rule.job_priority === null ? null : (PRIORITIES[rule.job_priority] ?? null),
    jobType: name(o.types, rule.job_type_id),
    from: name(o.statuses, rule.job_status_from_id) ?? '',
    to: name(o.statuses, rule.job_status_to_id) ?? '',
    compare: rule.date_field_to_compare,
    track: rule.date_field_to_track,
  });
}

/** "Leeds, priority 1, Reported to In progress": names a rule on its buttons for screen readers. */
function shortName(rule: SlaRule, o: Options): string {
  const status = (id: number) => o.statuses.find((s) => s.ID === id)?.name ?? `#${id}`;
  return `${rule.branch_name}, ${rule.job_priority === null ? 'every priority' : `priority ${rule.job_priority}`}, ${status(rule.job_status_from_id)} to ${status(rule.job_status_to_id)}`;
}

/** /sla-rules: the rules table, the add/change form and (administrators) the agency's SLA settings. */
export function SlaRulesPage() {
  const session = useSession();
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<SlaRule | null>(null);
  const [formKey, setFormKey] = useState(0);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const options = useLoad(async (): Promise<Options> => {
    const [branches, statuses, types] = await Promise.all([
      api.GET('/api/admin/branches', { params: { query: { limit: 200 } } }),
      api.GET('/api/jobs/statuses'),
      api.GET('/api/jobs/types'),
    ]);
    return { branches: branches.data!.data as Branch[], statuses: statuses.data!.data, types: types.data!.data };
  }, []);
  const table = useUrlTable(RULE_SORT_KEYS);
  const rules = useLoad(
    async () => (await api.GET('/api/agents/branch-sla-response-times', { params: { query: { limit: 200 } } })).data!.data as SlaRule[],
    [],
  );

  const remove = (rule: SlaRule, o: Options) =>
    ask({
      title: 'Delete this SLA rule?',
      body: <p>{sentenceOf(rule, rule.branch_name, o)} Jobs are no longer measured against it; clocks it already decided keep their outcome.</p>,
      confirmLabel: 'Delete rule',
      cancelLabel: 'Keep the rule',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/agents/branch-sla-response-times', { body: { uuid: rule.uuid } });
          if (editing?.uuid === rule.uuid) setEditing(null);
          setNotice('Rule deleted.');
          rules.reload();
        }),
    });

  return (
    <>
      <PageTitle>SLA rules</PageTitle>
      <p>How long a job may take between two of its moments, per branch, priority and job type. Jobs are measured against these rules as they move.</p>
      <Notice text={notice} />
      <Loaded load={options}>
        {(o) => (
          <>
            <section aria-labelledby="rules-heading">
              <h2 id="rules-heading">Rules</h2>
              <ProblemMessage problem={action.problem} />
              <Loaded load={rules}>
                {(list) =>
                  list.length === 0 ? (
                    <p className="empty-state">
                      No SLA rules yet. Add one with the form below: pick the branch, the priority, the two moments of a job and the time allowed between them.
                    </p>
                  ) : (
                    <DataTable<SlaRule>
                      label="SLA rules"
                      rowKey={(r) => r.uuid}
                      rows={list}
                      {...table}
                      columns={ruleColumns(
                        o,
                        (r) => {
                          setEditing(r);
                          setNotice(null);
                        },
                        (r) => remove(r, o),
                      )}
                    />
                  )
                }
              </Loaded>
            </section>
            <section aria-labelledby="rule-form-heading">
              <h2 id="rule-form-heading">{editing ? 'Change a rule' : 'Add a rule'}</h2>
              <RuleForm
                key={`${editing?.uuid ?? 'new'}-${formKey}`}
                rule={editing}
                options={o}
                onCancel={() => setEditing(null)}
                onSaved={(text) => {
                  setNotice(text);
                  setEditing(null);
                  setFormKey((k) => k + 1);
                  rules.reload();
                }}
              />
            </section>
          </>
        )}
      </Loaded>
      {session.permissions.has('api.sla.settings.manage') && session.me?.agency_uuid ? <SettingsSection /> : null}
      {dialog}
    </>
  );
}

/** The columns the rules table sorts by (`?sort=branch&order=asc`), in the browser: the API lists the rules in one order. */
const RULE_SORT_KEYS = ['branch', 'priority'] as const;

/** The rules table's columns: branch, priority (both sortable; rules for every priority last), allowed time and the rule in words; Change and Delete. */
function ruleColumns(o: Options, onChange: (r: SlaRule) => void, onDelete: (r: SlaRule) => void): Column<SlaRule>[] {
  return [
    { header: 'Branch', sortKey: 'branch', sortValue: (r) => r.branch_name, cell: (r) => r.branch_name },
    {
      header: 'Priority',
      key: true,
      sortKey: 'priority',
      sortValue: (r) => r.job_priority,
      cell: (r) => (r.job_priority === null ? 'Every priority' : `${r.job_priority} ${PRIORITIES[r.job_priority] ?? ''}`.trim()),
    },
    { header: 'Allowed time', key: true, cell: (r) => allowanceWords(r) },
    { header: 'Rule in words', key: true, cell: (r) => sentenceOf(r, r.branch_name, o) },
    {
      header: 'Change',
      action: true,
      cell: (r) => (
        <Button variant="secondary" aria-label={`Change ${shortName(r, o)}`} onPress={() => onChange(r)}>
          Change
        </Button>
      ),
    },
    {
      header: 'Delete',
      action: true,
      cell: (r) => (
        <Button variant="danger" aria-label={`Delete ${shortName(r, o)}`} onPress={() => onDelete(r)}>
          Delete
        </Button>
      ),
    },
  ];
}

/** The values of the rule form as the rule sentence needs them (null while a choice is missing). */
function draftOf(form: HTMLFormElement) {
  const f = new FormData(form);
  const text = (n: string) => String(f.get(n) ?? '').trim();
  const int = (n: string) => (/^\d+$/.test(text(n)) ? Number(text(n)) : null);
  return {
    branch_uuid: text('branch_uuid'),
    job_priority: int('job_priority'),
    job_type_id: int('job_type_id'),
    job_status_from_id: int('job_status_from_id'),
    job_status_to_id: int('job_status_to_id'),
    date_field_to_compare: dateFieldOf(text('date_field_to_compare')),
    date_field_to_track: dateFieldOf(text('date_field_to_track')),
    calendar: calendarOf(text('calendar')) ?? 'calendar_days',
    allowance: int('allowance'),
    description: text('description'),
  };
}

/** Adds a rule (rule null) or changes `rule`; mounted once the options are loaded. */
function RuleForm({ rule, options, onSaved, onCancel }: { rule: SlaRule | null; options: Options; onSaved: (notice: string) => void; onCancel: () => void }) {
  const action = useAction();
  const [calendar, setCalendar] = useState<string>(rule?.calendar ?? 'calendar_days');
  const [draft, setDraft] = useState<ReturnType<typeof draftOf> | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const { errors, other } = splitProblem(action.problem, RULE_FIELDS, { minimum_response_days: 'allowance', response_hours: 'allowance' });
  const hours = countsHours(calendar);
  const branches = options.branches.filter((b) => !b.closed_at || b.uuid === rule?.branch_uuid);
  const preview = (() => {
    const d = draft;
    if (!d) return rule ? sentenceOf(rule, rule.branch_name, options) : null;
    const branch = options.branches.find((b) => b.uuid === d.branch_uuid)?.name;
    if (!branch || d.job_status_from_id === null || d.job_status_to_id === null || !d.date_field_to_compare || !d.date_field_to_track || d.allowance === null)
      return null;
    return sentenceOf(
      {
        ...d,
        date_field_to_compare: d.date_field_to_compare,
        date_field_to_track: d.date_field_to_track,
        job_status_from_id: d.job_status_from_id,
        job_status_to_id: d.job_status_to_id,
        minimum_response_days: hours ? 0 : d.allowance,
        response_hours: hours ? d.allowance : null,
      },
      branch,
      options,
    );
  })();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = draftOf(e.currentTarget);
    const allowance = hours
      ? { response_hours: d.allowance ?? 0, minimum_response_days: 0 }
      : { minimum_response_days: d.allowance ?? -1, response_hours: null };
    const body = {
      ...(rule ? { uuid: rule.uuid } : {}),
      branch_uuid: d.branch_uuid,
      job_priority: d.job_priority,
      job_type_id: d.job_type_id,
      job_status_from_id: d.job_status_from_id ?? 0,
      job_status_to_id: d.job_status_to_id ?? 0,
      date_field_to_compare: d.date_field_to_compare,
      date_field_to_track: d.date_field_to_track,
      calendar: d.calendar,
      ...allowance,
      description: d.description,
    };
    void action.run(async () => {
      const { data } = await api.POST('/api/agents/branch-sla-response-times', { body: body });
      const saved = data!.data as SlaRule;
      onSaved(`${rule ? 'Rule changed' : 'Rule added'}: ${sentenceOf(saved, saved.branch_name, options)}`);
    });
  };
  const statusOptions = options.statuses.map((s) => (
    <option key={s.ID} value={s.ID}>
      {s.name}
    </option>
  ));
  const dateOptions = Object.entries(DATE_FIELD_WORDS).map(([v, words]) => (
    <option key={v} value={v}>
      When it was {words}
    </option>
  ));
  return (
    // The rule in words follows every change of the form (change events bubble to this wrapper), and a
    // field's error goes once it is changed (not on leaving it, which moved the buttons under the pointer).
    <div
      onChange={() => {
        if (Object.keys(errors).length > 0) action.setProblem(null);
        if (form.current) setDraft(draftOf(form.current));
      }}
    >
      <Form ref={form} className="form" aria-label={rule ? 'Change the SLA rule' : 'Add an SLA rule'} onSubmit={onSubmit} validationErrors={errors}>
        <SelectField id="rule-branch" name="branch_uuid" label="Branch" required defaultValue={rule?.branch_uuid ?? ''} error={errors.branch_uuid}>
          <option value="">Choose a branch</option>
          {branches.map((b) => (
            <option key={b.uuid} value={b.uuid}>
              {b.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="rule-priority"
          name="job_priority"
          label="Priority"
          defaultValue={rule?.job_priority === null || !rule ? '' : String(rule.job_priority)}
          error={errors.job_priority}
        >
          <option value="">Every priority</option>
          {Object.entries(PRIORITIES).map(([p, name]) => (
            <option key={p} value={p}>
              {p} {name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="rule-type"
          name="job_type_id"
          label="Job type"
          defaultValue={rule?.job_type_id ? String(rule.job_type_id) : ''}
          error={errors.job_type_id}
        >
          <option value="">Every job type</option>
          {options.types.map((t) => (
            <option key={t.ID} value={t.ID}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="rule-from"
          name="job_status_from_id"
          label="Watched from status"
          required
          defaultValue={String(rule?.job_status_from_id ?? options.statuses[0]?.ID ?? '')}
          error={errors.job_status_from_id}
        >
          {statusOptions}
        </SelectField>
        <SelectField
          id="rule-to"
          name="job_status_to_id"
          label="To status"
          required
          defaultValue={String(rule?.job_status_to_id ?? '')}
          error={errors.job_status_to_id}
        >
          <option value="">Choose a status</option>
          {statusOptions}
        </SelectField>
        <SelectField
          id="rule-compare"
          name="date_field_to_compare"
          label="The clock starts"
          required
          defaultValue={rule?.date_field_to_compare ?? 'created_at'}
          error={errors.date_field_to_compare}
        >
          {dateOptions}
        </SelectField>
        <SelectField
          id="rule-track"
          name="date_field_to_track"
          label="The clock stops"
          required
          defaultValue={rule?.date_field_to_track ?? ''}
          error={errors.date_field_to_track}
        >
          <option value="">Choose a moment</option>
          {dateOptions}
        </SelectField>
        <SelectField id="rule-calendar" name="calendar" label="How time counts" required defaultValue={calendar} onChange={setCalendar} error={errors.calendar}>
          {CALENDARS.map((c) => (
            <option key={c} value={c}>
              {CALENDAR_LABELS[c]}
            </option>
          ))}
        </SelectField>
        <Field
          key={hours ? 'hours' : 'days'}
          name="allowance"
          label={hours ? 'Allowed time in hours' : 'Allowed time in days'}
          isRequired
          maxLength={5}
          defaultValue={rule ? String(countsHours(rule.calendar) === hours ? (hours ? (rule.response_hours ?? '') : rule.minimum_response_days) : '') : ''}
          description={hours ? 'Whole hours, such as 4.' : 'Whole days, such as 2.'}
        />
        <Field
          name="description"
          label="Description"
          multiline
          maxLength={1000}
          defaultValue={rule?.description ?? ''}
          description="Optional: a note for people, such as “Emergencies attended the same day”."
        />
        <p className="rule-preview">
          <strong>In words:</strong>{' '}
          {preview ?? 'Choose the branch, the two statuses, when the clock starts and stops, and the allowed time to see the rule in words.'}
        </p>
        {other ? <ProblemMessage problem={other} /> : null}
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            {rule ? 'Save rule' : 'Add rule'}
          </Button>
          {rule ? (
            <Button variant="secondary" onPress={onCancel}>
              Stop changing
            </Button>
          ) : null}
        </div>
      </Form>
    </div>
  );
}

const DAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;

type UkRegion = NonNullable<RequestBody<'/api/sla/settings', 'post'>['uk_region']>;

const REGIONS: Record<UkRegion, string> = { 'england-and-wales': 'England and Wales', scotland: 'Scotland', 'northern-ireland': 'Northern Ireland' };

/** True when `value` is one of REGIONS. */
function isUkRegion(value: string): value is UkRegion {
  return Object.hasOwn(REGIONS, value);
}

/** The agency's SLA settings (administrators): UK region, at-risk share and office hours. */
function SettingsSection() {
  const settings = useLoad(async () => (await api.GET('/api/sla/settings', { params: { query: {} } })).data!.data as SlaSettings, []);
  return (
    <section aria-labelledby="sla-settings-heading">
      <h2 id="sla-settings-heading">Agency SLA settings</h2>
      <Loaded load={settings}>{(s) => <SettingsForm settings={s} />}</Loaded>
    </section>
  );
}

const SETTINGS_FIELDS = ['uk_region', 'at_risk_percent', 'office_hours'];

function SettingsForm({ settings }: { settings: SlaSettings }) {
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const aliases: Record<string, string> = { opens: 'office_hours', closes: 'office_hours', ...Object.fromEntries(DAYS.map(([d]) => [d, 'office_hours'])) };
  const { errors, other } = splitProblem(action.problem, SETTINGS_FIELDS, aliases);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? '').trim();
    const day = (d: (typeof DAYS)[number][0]) =>
      text(`${d}_opens`) || text(`${d}_closes`) ? { opens: text(`${d}_opens`), closes: text(`${d}_closes`) } : null;
    // Each day of DAYS, in its order.
    const office_hours = { mon: day('mon'), tue: day('tue'), wed: day('wed'), thu: day('thu'), fri: day('fri'), sat: day('sat'), sun: day('sun') };
    const percent = text('at_risk_percent');
    const region = text('uk_region');
    // The select offers REGIONS only.
    const body = { ...(isUkRegion(region) ? { uk_region: region } : {}), at_risk_percent: /^\d+$/.test(percent) ? Number(percent) : -1, office_hours };
    setNotice(null);
    void action.run(async () => {
      await api.POST('/api/sla/settings', { body: body });
      setNotice('SLA settings saved. Open jobs are measured again with them.');
    });
  };
  return (
    <Form className="form" aria-label="Agency SLA settings" onSubmit={onSubmit} validationErrors={errors}>
      <SelectField
        id="sla-region"
        name="uk_region"
        label="Bank holidays of"
        required
        defaultValue={settings.uk_region}
        error={errors.uk_region}
        hint="Working days and office hours skip these bank holidays."
      >
        {Object.entries(REGIONS).map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </SelectField>
      <Field
        name="at_risk_percent"
        label="At risk after (% of the allowed time)"
        isRequired
        maxLength={2}
        defaultValue={String(settings.at_risk_percent)}
        description="A job shows as at risk once this share of its allowed time has gone, such as 75."
      />
      <fieldset className="field-set" aria-describedby={errors.office_hours ? 'office-hours-error' : 'office-hours-hint'}>
        <legend>Office hours (London time)</legend>
        <p id="office-hours-hint" className="hint">
          {settings.office_hours_default ? 'Not set yet: Monday to Friday 09:00 to 17:30 is used. ' : ''}Times as HH:MM, such as 09:00 and 17:30. Leave both
          empty for a closed day. Office-hours rules count only these hours.
        </p>
        {errors.office_hours ? (
          <p id="office-hours-error" className="field-error">
            {errors.office_hours}
          </p>
        ) : null}
        <div className="office-hours">
          {DAYS.map(([d, day]) => (
            <div key={d} className="office-day">
              <Field name={`${d}_opens`} label={`${day} opens`} maxLength={5} defaultValue={settings.office_hours[d]?.opens ?? ''} />
              <Field name={`${d}_closes`} label={`${day} closes`} maxLength={5} defaultValue={settings.office_hours[d]?.closes ?? ''} />
            </div>
          ))}
        </div>
      </fieldset>
      {other ? <ProblemMessage problem={other} /> : null}
      <Notice text={notice} />
      <Button type="submit" isDisabled={action.busy}>
        Save SLA settings
      </Button>
    </Form>
  );
}
