/**
 * Operations and reports in the console (docs/console.md "The agency's office"): /operations for
 * SysOps (the service's health, queues, failed messages, recent events, push devices, the IP block
 * list and rate limits) and /reports for the agency (SLA compliance, contractors, self-help, SMS
 * use, the message delivery log and scheduled report e-mails).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, formatLondonDateTime, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import '../people-forms.css';

/** "3 min" / "2 h 5 min" from seconds; "-" for none. */
export function durationWords(s: number | null | undefined): string {
  if (s === null || s === undefined) return '-';
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  return `${Math.round(h / 24)} days`;
}

/** "92 %" from a share 0..1 or a percentage, "-" for none. */
function percent(x: number | null | undefined, share = true): string {
  return x === null || x === undefined ? '-' : `${Math.round(share ? x * 100 : x)} %`;
}

type DeadLetter = { ID: string; queue: string | null; tries: number; error: string | null; failed_at: string };
type Blocked = { uuid: string; kind: string; value: string | null; user_email: string | null; reason: string; automatic: boolean; expires_at: string | null; created_at: string };
type Limit = { route: string; method: string; path: string; ip_max: number; account_max: number; window_s: number; overridden: boolean };

/**
 * /operations (SysOps): GET /api/system/status, /queue, /events, /dead-letters (retry and purge
 * after a confirmation), /device-tokens; the IP block list (GET/POST/DELETE
 * /api/security/blacklist); rate limits (GET/PUT /api/admin/rate-limits). docs/operations.md.
 */
export function OperationsPage() {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const status = useLoad(['ops', 'status'], async () => (await api.GET('/api/system/status')).data!.data);
  const queue = useLoad(['ops', 'queue'], async () => (can('api.system.queue.view') ? (await api.GET('/api/system/queue')).data!.data : null));
  const dead = useLoad(['ops', 'dead'], async () => (can('api.system.dead_letters.view') ? ((await api.GET('/api/system/dead-letters', { params: { query: { limit: 50 } } })).data!.data as DeadLetter[]) : null));
  const events = useLoad(['ops', 'events'], async () => (can('api.system.events.view') ? (await api.GET('/api/system/events', { params: { query: { limit: 25 } } })).data!.data : null));
  const devices = useLoad(['ops', 'devices'], async () => (can('api.system.device-tokens.manage') ? (await api.GET('/api/system/device-tokens', { params: { query: { limit: 50 } } })).data!.data : null));
  const blocked = useLoad(['ops', 'blocked'], async () => (can('api.security.blacklist.manage') ? ((await api.GET('/api/security/blacklist', { params: { query: { limit: 100 } } })).data!.data as Blocked[]) : null));
  const limits = useLoad(['ops', 'limits'], async () => (can('api.admin.rate-limits.manage') ? ((await api.GET('/api/admin/rate-limits', { params: { query: { limit: 200 } } })).data!.data as Limit[]) : null));
  const letters = (verb: 'retry' | 'purge') =>
    ask({
      title: verb === 'retry' ? 'Try every failed message again?' : 'Delete every failed message?',
      body: verb === 'retry' ? 'Each goes back on its queue.' : 'They cannot be tried again afterwards.',
      confirmLabel: verb === 'retry' ? 'Try them again' : 'Delete them',
      danger: verb === 'purge',
      onConfirm: () =>
        void action.run(async () => {
          if (verb === 'retry') {
            const { data } = await api.POST('/api/system/dead-letters/retry', { body: { all: true } });
            setDone(`${data!.data.retried} messages put back on their queues.`);
          } else {
            const { data } = await api.POST('/api/system/dead-letters/purge', { body: { all: true } });
            setDone(`${data!.data.purged} failed messages deleted.`);
          }
          dead.reload();
          queue.reload();
        }),
    });
  const block = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const value = String(f.get('value') ?? '').trim();
    void action.run(async () => {
      setDone(null);
      await api.POST('/api/security/blacklist', { body: { kind: value.includes('/') ? 'cidr' : 'ip', value, reason: String(f.get('reason') ?? '').trim() } });
      setDone(`${value} blocked.`);
      setFormKey((k) => k + 1);
      blocked.reload();
    });
  };
  const unblock = (b: Blocked) =>
    ask({
      title: `Unblock ${b.value ?? b.user_email ?? 'this entry'}?`,
      confirmLabel: 'Unblock',
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/security/blacklist/{uuid}', { params: { path: { uuid: b.uuid } } });
          setDone(`${b.value ?? b.user_email} unblocked.`);
          blocked.reload();
        }),
    });
  const setLimit = (l: Limit, reset: boolean) =>
    ask({
      title: reset ? `Back to the default limit for ${l.method} ${l.path}?` : `Requests allowed to ${l.method} ${l.path}`,
      body: reset ? undefined : `Per address in ${l.window_s} seconds; now ${l.ip_max}.`,
      confirmLabel: reset ? 'Use the default' : 'Save limit',
      ...(reset ? {} : { text: { label: 'Requests per address', required: true, initial: String(l.ip_max) } }),
      onConfirm: (text) =>
        void action.run(async () => {
          const n = Number(text);
          if (!reset && !(Number.isInteger(n) && n > 0)) throw new Error('Enter a whole number of requests, such as 60.');
          await api.PUT('/api/admin/rate-limits', { body: reset ? { route: l.route, reset: true } : { route: l.route, ip_max: n } });
          setDone(`The limit for ${l.method} ${l.path} was saved.`);
          limits.reload();
        }),
    });
  // GET /api/system/backup/database: the whole database as a gzip file the browser saves.
  const backup = () =>
    void action.run(async () => {
      const { data } = await api.GET('/api/system/backup/database', { parseAs: 'blob' });
      const url = URL.createObjectURL(data as Blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `caretaker-backup-${new Date().toISOString().slice(0, 10)}.sql.gz`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDone('The backup was downloaded. Keep it somewhere safe: it holds every agency’s data.');
    });
  // POST /api/security/file-integrity/scan: the first 500 stored files checked against their SHA-256.
  const scan = () =>
    void action.run(async () => {
      const { data } = await api.POST('/api/security/file-integrity/scan', { body: { limit: 500 } });
      const r = data!.data;
      setDone(`${r.scanned} of ${r.total} stored files checked: ${r.ok} unchanged, ${r.mismatched} changed, ${r.missing} missing${r.next_offset !== null ? ' (more files remain; run it again)' : ''}.`);
    });
  const s = status.data;
  return (
    <>
      <PageTitle>Operations</PageTitle>
      <div className="button-row">
        {can('api.system.backup') ? (
          <Button variant="secondary" isDisabled={action.busy} onPress={backup}>
            Download a database backup
          </Button>
        ) : null}
        {can('api.security.file-integrity.manage') ? (
          <Button variant="secondary" isDisabled={action.busy} onPress={scan}>
            Check the stored files
          </Button>
        ) : null}
      </div>
      <ProblemMessage problem={action.problem ?? status.problem} onRetry={status.reload} />
      <Notice text={done} />
      <Section id="ops-status" title="Service">
        {s ? (
          <dl className="details">
            <dt>State</dt>
            <dd>{s.status === 'ok' ? 'Working' : s.status === 'degraded' ? 'Working with problems' : 'Down'}</dd>
            <dt>Version</dt>
            <dd>{s.version}</dd>
            <dt>Running for</dt>
            <dd>{durationWords(s.uptime_s)}</dd>
            <dt>Database</dt>
            <dd>
              {s.checks.database} ({s.checks.database_engine})
            </dd>
            <dt>Cache</dt>
            <dd>{s.checks.cache}</dd>
          </dl>
        ) : (
          <p className="loading">Loading…</p>
        )}
      </Section>
      {queue.data ? (
        <Section id="ops-queue" title="Queues">
          <p>
            Events not yet sent on: {queue.data.outbox.unpublished} (the oldest {durationWords(queue.data.outbox.lag_s)} old).
          </p>
          <ul>
            {queue.data.queues.map((q) => (
              <li key={q.name}>
                {q.name}: {Object.entries(q.counts as Record<string, number>).map(([k, v]) => `${v} ${k}`).join(', ')}
                {q.oldest_waiting_s ? `; the oldest waiting ${durationWords(q.oldest_waiting_s)}` : ''}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {dead.data ? (
        <Section id="ops-dead" title="Failed messages">
          {dead.data.length === 0 ? (
            <p className="empty-state">No failed messages: everything queued was handled.</p>
          ) : (
            <>
              <DataTable
                label="Failed messages"
                columns={[
                  { header: 'Queue', cell: (d: DeadLetter) => d.queue ?? '-' },
                  { header: 'Tries', key: true, cell: (d: DeadLetter) => String(d.tries) },
                  { header: 'Error', key: true, cell: (d: DeadLetter) => d.error ?? '-' },
                  { header: 'Failed', key: true, cell: (d: DeadLetter) => formatLondonDateTime(d.failed_at) },
                ]}
                rows={dead.data}
                rowKey={(d) => d.ID}
              />
              {can('api.system.dead_letters.manage') ? (
                <div className="button-row">
                  <Button isDisabled={action.busy} onPress={() => letters('retry')}>
                    Try them all again
                  </Button>
                  <Button variant="danger" isDisabled={action.busy} onPress={() => letters('purge')}>
                    Delete them all
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </Section>
      ) : null}
      {events.data ? (
        <Section id="ops-events" title="Recent events">
          {events.data.length === 0 ? (
            <p className="empty-state">No events yet.</p>
          ) : (
            <ul>
              {events.data.map((e) => (
                <li key={e.ID}>
                  {e.name}, {formatLondonDateTime(e.occurred_at)}
                  {e.published_at ? '' : ' (not yet sent on)'}
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}
      {devices.data ? (
        <Section id="ops-devices" title="Phones and browsers for notifications">
          <p>{devices.data.length === 0 ? 'No device has asked for notifications yet.' : `${devices.data.length} registered: ${[...new Set(devices.data.map((d) => d.platform))].join(', ')}.`}</p>
        </Section>
      ) : null}
      {blocked.data ? (
        <Section id="ops-blocked" title="Blocked addresses">
          {blocked.data.length === 0 ? (
            <p className="empty-state">No address is blocked. Block one below when it attacks the service.</p>
          ) : (
            <DataTable
              label="Blocked addresses"
              columns={[
                { header: 'Address', cell: (b: Blocked) => b.value ?? b.user_email ?? '-' },
                { header: 'Why', key: true, cell: (b: Blocked) => `${b.reason}${b.automatic ? ' (automatic)' : ''}` },
                { header: 'Until', key: true, cell: (b: Blocked) => (b.expires_at ? formatLondonDateTime(b.expires_at) : 'until unblocked') },
                {
                  header: 'Actions',
                  key: true,
                  cell: (b: Blocked) => (
                    <Button variant="secondary" aria-label={`Unblock ${b.value ?? b.user_email}`} onPress={() => unblock(b)}>
                      Unblock
                    </Button>
                  ),
                },
              ]}
              rows={blocked.data}
              rowKey={(b) => b.uuid}
            />
          )}
          <form key={formKey} className="form inline" onSubmit={block} aria-label="Block an address">
            <Labelled label="IP address or range" required hint="Such as 203.0.113.7 or 203.0.113.0/24.">
              {(id, d) => <input id={id} name="value" required maxLength={64} aria-describedby={d} />}
            </Labelled>
            <Labelled label="Why" required>
              {(id) => <input id={id} name="reason" required maxLength={500} />}
            </Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Block
              </Button>
            </div>
          </form>
        </Section>
      ) : null}
      {limits.data ? (
        <Section id="ops-limits" title="Rate limits">
          <DataTable
            label="Rate limits"
            columns={[
              { header: 'Route', cell: (l: Limit) => `${l.method} ${l.path}` },
              { header: 'Per address', key: true, cell: (l: Limit) => `${l.ip_max} in ${durationWords(l.window_s)}${l.overridden ? ' (changed)' : ''}` },
              { header: 'Per account', key: true, cell: (l: Limit) => `${l.account_max} in ${durationWords(l.window_s)}` },
              {
                header: 'Actions',
                key: true,
                cell: (l: Limit) => (
                  <div className="button-row">
                    <Button variant="secondary" aria-label={`Change: ${l.method} ${l.path}`} onPress={() => setLimit(l, false)}>
                      Change
                    </Button>
                    {l.overridden ? (
                      <Button variant="secondary" aria-label={`Use the default: ${l.method} ${l.path}`} onPress={() => setLimit(l, true)}>
                        Use the default
                      </Button>
                    ) : null}
                  </div>
                ),
              },
            ]}
            rows={limits.data}
            rowKey={(l) => l.route}
          />
        </Section>
      ) : null}
      {dialog}
    </>
  );
}

/** The first and last day of the last 90 days, as YYYY-MM-DD. */
function lastDays(days = 90): { from: string; to: string } {
  const to = new Date();
  const from = new Date(to.getTime() - days * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

const REPORT_NAMES: Record<string, string> = {
  'jobs-register': 'Jobs register',
  'contractor-performance': 'Contractor performance',
  'sla-compliance': 'SLA compliance',
  'tenant-jobs-per-property': 'Tenant jobs per property',
  'certificates-register': 'Certificates register',
};

type Subscription = { uuid: string; report: string; format: 'csv' | 'xlsx'; frequency: 'weekly' | 'monthly'; last_sent_at: string | null };

/**
 * /reports: the last 90 days' SLA compliance per branch (GET /api/sla/compliance), contractors
 * (GET /api/analytics/contractors), self-help (GET /api/analytics/deflections), SMS use
 * (GET /api/sms/usage) and the message delivery log (GET /api/messaging/deliveries); reports
 * e-mailed weekly or monthly (GET/POST /api/reports/subscriptions, GET/PUT/DELETE .../{uuid}).
 */
export function ReportsPage() {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const { from, to } = lastDays();
  const sla = useLoad(['reports', 'sla', from], async () => (can('api.sla.compliance.view') ? (await api.GET('/api/sla/compliance', { params: { query: { from_date: from, to_date: to, group_by: 'branch' } } })).data!.data : null));
  const contractors = useLoad(['reports', 'contractors', from], async () => (can('api.analytics.view') ? (await api.GET('/api/analytics/contractors', { params: { query: { from_date: from, to_date: to } } })).data!.data : null));
  const deflections = useLoad(['reports', 'deflections', from], async () => (can('api.analytics.view') ? (await api.GET('/api/analytics/deflections', { params: { query: { from_date: from, to_date: to } } })).data!.data : null));
  const sms = useLoad(['reports', 'sms', from], async () => (can('api.sms.usage.view') ? (await api.GET('/api/sms/usage', { params: { query: { from, to } } })).data!.data : null));
  const deliveries = useLoad(['reports', 'deliveries'], async () => (can('api.messaging.deliveries.view') ? (await api.GET('/api/messaging/deliveries', { params: { query: { limit: 25 } } })).data!.data : null));
  const subs = useLoad(['reports', 'subscriptions'], async () => (can('api.reports.subscriptions.manage') ? ((await api.GET('/api/reports/subscriptions', { params: { query: { limit: 100 } } })).data!.data as Subscription[]) : null));
  const one = useLoad(['reports', 'subscription', shown], async () => (shown ? ((await api.GET('/api/reports/subscriptions/{uuid}', { params: { path: { uuid: shown } } })).data!.data as Subscription) : null));
  const subscribe = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const report = String(f.get('report')) as keyof typeof REPORT_NAMES & 'jobs-register';
    const frequency = String(f.get('frequency')) as 'weekly' | 'monthly';
    void action.run(async () => {
      setDone(null);
      await api.POST('/api/reports/subscriptions', { body: { report, frequency, format: String(f.get('format')) as 'csv' | 'xlsx' } });
      setDone(`${REPORT_NAMES[report]} will be e-mailed to you ${frequency === 'weekly' ? 'every Monday' : 'on the 1st of every month'}.`);
      subs.reload();
    });
  };
  const change = (s: Subscription) =>
    void action.run(async () => {
      const frequency = s.frequency === 'weekly' ? 'monthly' : 'weekly';
      await api.PUT('/api/reports/subscriptions/{uuid}', { params: { path: { uuid: s.uuid } }, body: { frequency } });
      setDone(`${REPORT_NAMES[s.report] ?? s.report} is now sent ${frequency}.`);
      subs.reload();
      one.reload();
    });
  const stop = (s: Subscription) =>
    ask({
      title: `Stop e-mailing ${REPORT_NAMES[s.report] ?? s.report}?`,
      confirmLabel: 'Stop the e-mails',
      cancelLabel: 'Keep them',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/reports/subscriptions/{uuid}', { params: { path: { uuid: s.uuid } } });
          setDone(`${REPORT_NAMES[s.report] ?? s.report} is no longer e-mailed.`);
          setShown(null);
          subs.reload();
        }),
    });
  return (
    <>
      <PageTitle>Performance</PageTitle>
      <p className="hint">
        The last 90 days, {formatLondonDate(from)} to {formatLondonDate(to)}. Files to download are on Exports.
      </p>
      <ProblemMessage problem={action.problem ?? sla.problem ?? contractors.problem} onRetry={sla.reload} />
      <Notice text={done} />
      <ReportInboxes />
      {sla.data ? (
        <Section id="rep-sla" title="SLA compliance by branch">
          {sla.data.length === 0 ? (
            <p className="empty-state">No job had an SLA clock in these days. Set the response times on SLA rules.</p>
          ) : (
            <DataTable
              label="SLA compliance by branch"
              columns={[
                { header: 'Branch', cell: (r) => r.name },
                { header: 'Met', key: true, cell: (r) => String(r.met) },
                { header: 'Breached', key: true, cell: (r) => String(r.breached) },
                { header: 'Running', key: true, cell: (r) => String(r.running) },
                { header: 'Compliance', key: true, cell: (r) => percent(r.compliance_percent, false) },
                { header: 'Typical response', key: true, cell: (r) => durationWords(r.median_minutes_to_respond === null ? null : r.median_minutes_to_respond * 60) },
              ]}
              rows={sla.data}
              rowKey={(r) => `${r.key ?? r.name}`}
            />
          )}
        </Section>
      ) : null}
      {contractors.data ? (
        <Section id="rep-contractors" title="Contractors">
          {contractors.data.length === 0 ? (
            <p className="empty-state">No contractor had a job in these days.</p>
          ) : (
            <DataTable
              label="Contractors"
              columns={[
                { header: 'Contractor', cell: (c) => c.company_name },
                { header: 'Jobs', key: true, cell: (c) => String(c.jobs) },
                { header: 'Typical response', key: true, cell: (c) => durationWords(c.response.median_s) },
                { header: 'On the booked slot', key: true, cell: (c) => percent(c.attendance.rate) },
                { header: 'Fixed first time', key: true, cell: (c) => percent(c.first_time_fix.rate) },
                { header: 'Rating', key: true, cell: (c) => (c.rating.average === null ? '-' : `${c.rating.average.toFixed(1)} of 5`) },
                { header: 'Average cost', key: true, cell: (c) => (c.cost.mean_pence === null ? '-' : formatPence(c.cost.mean_pence)) },
              ]}
              rows={contractors.data}
              rowKey={(c) => c.contractor_uuid}
            />
          )}
        </Section>
      ) : null}
      {deflections.data ? (
        <Section id="rep-deflections" title="Repairs solved by the tenant's self-help">
          {deflections.data.length === 0 ? (
            <p className="empty-state">No guided reports yet. Tenants report through Report a repair.</p>
          ) : (
            <ul>
              {deflections.data.map((d) => (
                <li key={d.flow_code}>
                  {d.flow_name}: {d.reports} reports, {d.deflected} solved without a visit ({percent(d.deflection_rate)}), {d.emergencies} emergencies, {d.jobs} jobs
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}
      {sms.data ? (
        <Section id="rep-sms" title="Text messages">
          <p>
            {sms.data.messages} sent ({sms.data.segments} parts), {sms.data.delivered} delivered, {sms.data.failed} failed, {sms.data.received} received
            {sms.data.costs.length ? `; cost ${sms.data.costs.map((c) => (c.currency === 'GBP' ? formatPence(c.amount_minor) : `${c.amount_minor / 100} ${c.currency}`)).join(', ')}` : ''}.
          </p>
        </Section>
      ) : null}
      {deliveries.data ? (
        <Section id="rep-deliveries" title="Messages sent">
          {deliveries.data.length === 0 ? (
            <p className="empty-state">No message sent yet.</p>
          ) : (
            <DataTable
              label="Messages sent"
              columns={[
                { header: 'To', cell: (d) => d.recipient.name ?? d.recipient.address ?? '-' },
                { header: 'Subject', key: true, cell: (d) => d.subject ?? '-' },
                { header: 'By', key: true, cell: (d) => (d.channel === 'email' ? 'E-mail' : d.channel === 'sms' ? 'Text' : d.channel === 'push' ? 'Notification' : d.channel) },
                { header: 'State', key: true, cell: (d) => `${d.status === 'sent' ? 'Sent' : d.status === 'failed' ? 'Failed' : d.status === 'skipped' ? 'Not sent' : 'Waiting'}${d.reason ? `: ${d.reason}` : ''}` },
                { header: 'When', key: true, cell: (d) => formatLondonDateTime(d.sent_at ?? d.created_at) },
              ]}
              rows={deliveries.data}
              rowKey={(d) => d.uuid}
            />
          )}
        </Section>
      ) : null}
      {subs.data ? (
        <Section id="rep-subs" title="Reports by e-mail">
          {subs.data.length === 0 ? (
            <p className="empty-state">No report is e-mailed to you yet. Choose one below.</p>
          ) : (
            <DataTable
              label="Reports by e-mail"
              columns={[
                { header: 'Report', cell: (s: Subscription) => REPORT_NAMES[s.report] ?? s.report },
                { header: 'How often', key: true, cell: (s: Subscription) => (s.frequency === 'weekly' ? 'Every week' : 'Every month') },
                { header: 'File', key: true, cell: (s: Subscription) => (s.format === 'csv' ? 'CSV' : 'Excel') },
                { header: 'Last sent', key: true, cell: (s: Subscription) => (s.last_sent_at ? formatLondonDate(s.last_sent_at) : 'not yet') },
                {
                  header: 'Actions',
                  key: true,
                  cell: (s: Subscription) => (
                    <div className="button-row">
                      <Button variant="secondary" aria-label={`Details: ${REPORT_NAMES[s.report] ?? s.report}`} onPress={() => setShown(s.uuid)}>
                        Details
                      </Button>
                      <Button variant="secondary" aria-label={`Send ${s.frequency === 'weekly' ? 'monthly' : 'weekly'}: ${REPORT_NAMES[s.report] ?? s.report}`} isDisabled={action.busy} onPress={() => change(s)}>
                        Send {s.frequency === 'weekly' ? 'monthly' : 'weekly'}
                      </Button>
                      <Button variant="danger" aria-label={`Stop: ${REPORT_NAMES[s.report] ?? s.report}`} isDisabled={action.busy} onPress={() => stop(s)}>
                        Stop
                      </Button>
                    </div>
                  ),
                },
              ]}
              rows={subs.data}
              rowKey={(s) => s.uuid}
            />
          )}
          {shown && one.data ? (
            <p className="notice" role="status">
              {REPORT_NAMES[one.data.report] ?? one.data.report}: {one.data.frequency === 'weekly' ? 'every Monday' : 'on the 1st of the month'} as {one.data.format === 'csv' ? 'CSV' : 'Excel'}, last sent {one.data.last_sent_at ? formatLondonDateTime(one.data.last_sent_at) : 'never'}.
            </p>
          ) : null}
          <form className="form inline" onSubmit={subscribe} aria-label="E-mail me a report">
            <Labelled label="Report">
              {(id) => (
                <select id={id} name="report">
                  {Object.entries(REPORT_NAMES).map(([k, v]) => (
                    <option key={k} value={k}>
                      {v}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="How often">
              {(id) => (
                <select id={id} name="frequency">
                  <option value="weekly">Every week</option>
                  <option value="monthly">Every month</option>
                </select>
              )}
            </Labelled>
            <Labelled label="File">
              {(id) => (
                <select id={id} name="format">
                  <option value="csv">CSV</option>
                  <option value="xlsx">Excel</option>
                </select>
              )}
            </Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                E-mail me this report
              </Button>
            </div>
          </form>
        </Section>
      ) : null}
      {dialog}
    </>
  );
}

type GuidedReport = { uuid: string; flow: { name: string }; outcome: string; deflected: boolean; outcome_title: string; job_uuid: string | null; job_reference: string | null; tenant_name: string | null; address_line1: string | null; postcode: string | null; created_at: string };
type Breach = { hazard_uuid: string; label: string; state: string; due_at: string; category_name: string; severity: string; job_uuid: string; reference: string; address: string | null };
type Recharge = { uuid: string; number: string; status: string; recharge_date: string; landlord_name: string; property: string; job_reference: string; total_pence: number };

const OUTCOMES: Record<string, string> = { advice: 'Solved by self-help', emergency: 'Emergency', job: 'New job', added_to_job: 'Added to an open job' };

/**
 * The inboxes under the reports (on /reports): tenants' guided reports with their answers (GET
 * /api/reporting/reports, GET .../{uuid}), Awaab's Law clocks at risk or breached (GET
 * /api/hazards/breaches) and recharges to landlords (GET /api/recharges).
 */
export function ReportInboxes() {
  const session = useSession();
  const can = (p: string) => session.permissions.has(p);
  const [open, setOpen] = useState<string | null>(null);
  const reports = useLoad(['reports', 'guided'], async () => (can('api.reporting.reports.view') ? ((await api.GET('/api/reporting/reports', { params: { query: { limit: 25 } } })).data!.data as GuidedReport[]) : null));
  const one = useLoad(['reports', 'guided', open], async () => (open ? (await api.GET('/api/reporting/reports/{uuid}', { params: { path: { uuid: open } } })).data!.data : null));
  const breaches = useLoad(['reports', 'hazards'], async () => (can('api.hazards.view') ? ((await api.GET('/api/hazards/breaches', { params: { query: { limit: 50 } } })).data!.data as Breach[]) : null));
  const recharges = useLoad(['reports', 'recharges'], async () => (can('api.recharges.view') ? ((await api.GET('/api/recharges', { params: { query: { limit: 50 } } })).data!.data as Recharge[]) : null));
  return (
    <>
      {reports.data ? (
        <Section id="rep-guided" title="Tenants' reports">
          <ProblemMessage problem={reports.problem ?? one.problem} onRetry={reports.reload} />
          {reports.data.length === 0 ? (
            <p className="empty-state">No guided report yet. Tenants report a repair from their app; each report and its answers show here.</p>
          ) : (
            <DataTable
              label="Tenants' reports"
              columns={[
                { header: 'Reported', cell: (r: GuidedReport) => `${r.outcome_title} (${r.flow.name})` },
                { header: 'By', key: true, cell: (r: GuidedReport) => [r.tenant_name, r.address_line1, r.postcode].filter(Boolean).join(', ') || '-' },
                { header: 'Outcome', key: true, cell: (r: GuidedReport) => (r.job_uuid ? <Link to={`/jobs/${r.job_uuid}`}>{`${OUTCOMES[r.outcome] ?? r.outcome}: ${r.job_reference}`}</Link> : (OUTCOMES[r.outcome] ?? r.outcome)) },
                { header: 'When', key: true, cell: (r: GuidedReport) => formatLondonDateTime(r.created_at) },
                {
                  header: 'Answers',
                  key: true,
                  cell: (r: GuidedReport) => (
                    <Button variant="secondary" aria-label={`Answers: ${r.outcome_title}, ${formatLondonDateTime(r.created_at)}`} onPress={() => setOpen(r.uuid)}>
                      Answers
                    </Button>
                  ),
                },
              ]}
              rows={reports.data}
              rowKey={(r) => r.uuid}
            />
          )}
          {one.data ? (
            <div className="notice" role="status">
              <p>
                <strong>{one.data.outcome_title}</strong>
                {one.data.description ? `: ${one.data.description}` : ''}
              </p>
              <ul>
                {one.data.answers.map((a) => (
                  <li key={a.node}>
                    {a.question} {a.answer}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </Section>
      ) : null}
      {breaches.data ? (
        <Section id="rep-hazards" title="Hazard deadlines (Awaab's Law)">
          {breaches.data.length === 0 ? (
            <p className="empty-state">No hazard deadline is at risk or missed.</p>
          ) : (
            <ul>
              {breaches.data.map((b) => (
                <li key={`${b.hazard_uuid}-${b.label}`}>
                  <Link to={`/jobs/${b.job_uuid}`}>{b.reference}</Link> {b.category_name}
                  {b.address ? `, ${b.address}` : ''}: {b.label} {b.state === 'breached' ? 'missed' : 'at risk'}, due {formatLondonDateTime(b.due_at)}
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}
      {recharges.data ? (
        <Section id="rep-recharges" title="Recharges to landlords">
          {recharges.data.length === 0 ? (
            <p className="empty-state">No recharge yet. A paid repair on a landlord's property is recharged to them; the files for your accounts are on Exports.</p>
          ) : (
            <DataTable
              label="Recharges to landlords"
              columns={[
                { header: 'Number', cell: (r: Recharge) => r.number },
                { header: 'Landlord', key: true, cell: (r: Recharge) => r.landlord_name },
                { header: 'Property', key: true, cell: (r: Recharge) => r.property },
                { header: 'Job', key: true, cell: (r: Recharge) => r.job_reference },
                { header: 'Date', key: true, cell: (r: Recharge) => formatLondonDate(r.recharge_date) },
                { header: 'Total', key: true, cell: (r: Recharge) => formatPence(r.total_pence) },
              ]}
              rows={recharges.data}
              rowKey={(r) => r.uuid}
            />
          )}
        </Section>
      ) : null}
    </>
  );
}
