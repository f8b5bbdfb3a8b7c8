/**
 * The agency's administration pages in the console (docs/console.md "The agency's office"):
 * webhooks (/webhooks, docs/webhooks.md), notices to staff (/notices) and roles with their
 * permissions (/roles, docs/users.md). Each shows an empty state saying what to do, the API's
 * problems beside the form, and asks before anything is deleted.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, formatLondonDateTime, PageTitle, ProblemMessage, SubmitRow, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice, useBranches } from './people-forms.tsx';
import '../people-forms.css';

/** The names of a comma- or line-separated list, trimmed, without empties or repeats. */
export function listOf(text: string): string[] {
  return [...new Set(text.split(/[\n,]+/).map((s) => s.trim()).filter(Boolean))];
}

/** A section with its heading (labelled by it). */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

type Endpoint = { uuid: string; url: string; description: string; events: string[]; enabled: boolean; disabled_reason: string | null; created_at: string };
type Delivery = { uuid: string; endpoint_uuid: string; event: string; status: string; attempts: number; last_response_code: number | null; last_error: string | null; created_at: string };

/**
 * /webhooks: the agency's webhook endpoints (GET/POST /api/webhooks/endpoints, GET/PUT/DELETE
 * .../{uuid}), a new signing secret (POST .../rotate-secret, shown once), a test delivery
 * (POST .../test) and the recent deliveries with a retry (GET /api/webhooks/deliveries,
 * POST .../{uuid}/retry). docs/webhooks.md.
 */
export function WebhooksPage() {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const endpoints = useLoad(['webhooks', 'endpoints'], async () => (await api.GET('/api/webhooks/endpoints', { params: { query: { limit: 100 } } })).data!.data as Endpoint[]);
  const deliveries = useLoad(['webhooks', 'deliveries'], async () => (await api.GET('/api/webhooks/deliveries', { params: { query: { limit: 50 } } })).data!.data as Delivery[]);
  const current = useLoad(['webhooks', 'endpoint', editing], async () =>
    editing ? ((await api.GET('/api/webhooks/endpoints/{uuid}', { params: { path: { uuid: editing } } })).data!.data as Endpoint) : null,
  );
  const reload = () => {
    endpoints.reload();
    deliveries.reload();
  };
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const url = String(f.get('url') ?? '').trim();
    const events = listOf(String(f.get('events') ?? ''));
    const description = String(f.get('description') ?? '').trim();
    void action.run(async () => {
      setDone(null);
      setSecret(null);
      if (editing) {
        await api.PUT('/api/webhooks/endpoints/{uuid}', { params: { path: { uuid: editing } }, body: { url, events, description, enabled: f.get('enabled') === 'on' } });
        setDone(`${url} saved.`);
        setEditing(null);
      } else {
        const { data } = await api.POST('/api/webhooks/endpoints', { body: { url, events, ...(description ? { description } : {}) } });
        setSecret(data!.data.secret);
        setDone(`${url} added. Copy its signing secret now: it is not shown again.`);
      }
      setFormKey((k) => k + 1);
      reload();
    });
  };
  const remove = (ep: Endpoint) =>
    ask({
      title: `Delete the webhook to ${ep.url}?`,
      body: 'It receives no more events. Its delivery history is deleted with it.',
      confirmLabel: 'Delete webhook',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/webhooks/endpoints/{uuid}', { params: { path: { uuid: ep.uuid } } });
          setDone(`The webhook to ${ep.url} was deleted.`);
          reload();
        }),
    });
  const rotate = (ep: Endpoint) =>
    ask({
      title: `New signing secret for ${ep.url}?`,
      body: 'The old secret keeps working for 24 hours, so the receiver can change over.',
      confirmLabel: 'Make a new secret',
      onConfirm: () =>
        void action.run(async () => {
          const { data } = await api.POST('/api/webhooks/endpoints/{uuid}/rotate-secret', { params: { path: { uuid: ep.uuid } }, body: { overlap_seconds: 86_400 } });
          setSecret(data!.data.secret);
          setDone(`New secret for ${ep.url}. Copy it now: it is not shown again.`);
        }),
    });
  const test = (ep: Endpoint) =>
    void action.run(async () => {
      await api.POST('/api/webhooks/endpoints/{uuid}/test', { params: { path: { uuid: ep.uuid } }, body: {} });
      setDone(`A test event was sent to ${ep.url}. Its delivery is listed below.`);
      deliveries.reload();
    });
  const retry = (d: Delivery) =>
    void action.run(async () => {
      await api.POST('/api/webhooks/deliveries/{uuid}/retry', { params: { path: { uuid: d.uuid } }, body: {} });
      setDone('The delivery will be tried again.');
      deliveries.reload();
    });
  const urlOf = (uuid: string) => endpoints.data?.find((x) => x.uuid === uuid)?.url ?? 'a deleted webhook';
  const columns: Column<Endpoint>[] = [
    { header: 'Address', cell: (ep) => ep.url },
    { header: 'Events', key: true, cell: (ep) => (ep.events.includes('*') ? 'every event' : ep.events.join(', ')) },
    { header: 'State', key: true, cell: (ep) => (ep.enabled ? 'Sending' : `Paused${ep.disabled_reason ? `: ${ep.disabled_reason}` : ''}`) },
    {
      header: 'Actions',
      key: true,
      cell: (ep) => (
        <div className="button-row">
          <Button variant="secondary" aria-label={`Edit: ${ep.url}`} onPress={() => setEditing(ep.uuid)}>
            Edit
          </Button>
          <Button variant="secondary" aria-label={`Send a test: ${ep.url}`} isDisabled={action.busy} onPress={() => test(ep)}>
            Send a test
          </Button>
          <Button variant="secondary" aria-label={`New secret: ${ep.url}`} isDisabled={action.busy} onPress={() => rotate(ep)}>
            New secret
          </Button>
          <Button variant="danger" aria-label={`Delete: ${ep.url}`} isDisabled={action.busy} onPress={() => remove(ep)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];
  const deliveryColumns: Column<Delivery>[] = [
    { header: 'Event', cell: (d) => d.event },
    { header: 'To', key: true, cell: (d) => urlOf(d.endpoint_uuid) },
    { header: 'Result', key: true, cell: (d) => `${d.status === 'succeeded' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Waiting'}${d.last_response_code ? ` (answered ${d.last_response_code})` : ''}${d.last_error ? `: ${d.last_error}` : ''}` },
    { header: 'Tries', key: true, cell: (d) => String(d.attempts) },
    { header: 'Sent', key: true, cell: (d) => formatLondonDateTime(d.created_at) },
    {
      header: 'Actions',
      key: true,
      cell: (d) =>
        d.status === 'failed' ? (
          <Button variant="secondary" aria-label={`Try again: ${d.event}`} isDisabled={action.busy} onPress={() => retry(d)}>
            Try again
          </Button>
        ) : null,
    },
  ];
  const ep = editing ? current.data : null;
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p className="hint">Your own systems are told when something happens here (a job reported, an invoice issued), signed with a secret they check (docs/webhooks.md).</p>
      <ProblemMessage problem={action.problem ?? endpoints.problem} onRetry={endpoints.reload} />
      <Notice text={done} />
      {secret ? (
        <p className="notice" role="status">
          Signing secret: <code>{secret}</code>
        </p>
      ) : null}
      {endpoints.data ? (
        <DataTable label="Webhooks" columns={columns} rows={endpoints.data} rowKey={(x) => x.uuid} empty={<p>No webhooks yet. Add the address of your receiver below and the events it wants.</p>} />
      ) : (
        <p className="loading">Loading…</p>
      )}
      <Section id="webhook-form" title={editing ? 'Change the webhook' : 'Add a webhook'}>
        {editing && !ep ? (
          <p className="loading">Loading…</p>
        ) : (
          <form key={`${formKey}-${editing ?? 'new'}`} className="form" onSubmit={save} aria-label={editing ? 'Change the webhook' : 'Add a webhook'}>
            <Labelled label="Address (https://)" required>
              {(id) => <input id={id} name="url" type="url" required maxLength={2048} defaultValue={ep?.url ?? ''} />}
            </Labelled>
            <Labelled label="Events" required hint='Event names separated by commas, such as "job.created, invoice.issued", or * for every event.'>
              {(id, d) => <textarea id={id} name="events" rows={2} required defaultValue={ep?.events.join(', ') ?? ''} aria-describedby={d} />}
            </Labelled>
            <Labelled label="Description">{(id) => <input id={id} name="description" maxLength={500} defaultValue={ep?.description ?? ''} />}</Labelled>
            {editing ? (
              <label className="checkbox-native">
                <input type="checkbox" name="enabled" defaultChecked={ep?.enabled ?? true} /> Sending events
              </label>
            ) : null}
            <SubmitRow label={editing ? 'Save webhook' : 'Add webhook'} busy={action.busy} onCancel={editing ? () => setEditing(null) : undefined} />
          </form>
        )}
      </Section>
      <Section id="webhook-deliveries" title="Recent deliveries">
        <ProblemMessage problem={deliveries.problem} onRetry={deliveries.reload} />
        {deliveries.data ? (
          <DataTable label="Recent deliveries" columns={deliveryColumns} rows={deliveries.data} rowKey={(x) => x.uuid} empty={<p>Nothing sent yet. "Send a test" on a webhook sends one.</p>} />
        ) : null}
      </Section>
      {dialog}
    </>
  );
}

type NoticeRow = { uuid: string; title: string; body: string; severity: string; branch_uuid: string | null; branch_name: string | null; role_code: string | null; starts_at: string; expires_at: string | null; read_count: number };
type CurrentNotice = { uuid: string; title: string; body: string; severity: string; starts_at: string; read_at: string | null };

const SEVERITY: Record<string, string> = { info: 'For information', warning: 'Warning', critical: 'Urgent' };

/**
 * The notices for the signed-in person (GET /api/notices/current), each with "Mark as read"
 * (POST /api/notices/{uuid}/read); nothing when there are none. A new `version` reads them again
 * (after a notice is published or deleted on the same page).
 */
export function CurrentNotices({ version = 0 }: { version?: number }) {
  const action = useAction();
  const notices = useLoad(['notices', 'current', version], async () => (await api.GET('/api/notices/current', { params: { query: { unread: true, limit: 20 } } })).data!.data as CurrentNotice[]);
  if (!notices.data || notices.data.length === 0) return null;
  return (
    <section aria-labelledby="current-notices" className="current-notices">
      <h2 id="current-notices">Notices for you</h2>
      <ProblemMessage problem={action.problem} />
      <ul>
        {notices.data.map((n) => (
          <li key={n.uuid}>
            <strong>
              {SEVERITY[n.severity] ?? n.severity}: {n.title}
            </strong>
            <p>{n.body}</p>
            <Button
              variant="secondary"
              aria-label={`Mark as read: ${n.title}`}
              isDisabled={action.busy}
              onPress={() =>
                void action.run(async () => {
                  await api.POST('/api/notices/{uuid}/read', { params: { path: { uuid: n.uuid } }, body: {} });
                  notices.reload();
                })
              }
            >
              Mark as read
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "2026-11-26" from the form's date, as the start (or end) of that London day in ISO; null when empty. */
function dayIso(value: FormDataEntryValue | null, end = false): string | null {
  const v = String(value ?? '').trim();
  if (!v) return null;
  return new Date(`${v}T${end ? '23:59:00' : '00:00:00'}Z`).toISOString();
}

/**
 * /notices: the notices shown to the agency's people (GET/POST /api/notices, GET/PUT/DELETE
 * /api/notices/{uuid}), who has read one (GET /api/notices/{uuid}/reads), and the caller's own
 * unread notices (CurrentNotices).
 */
export function NoticesPage() {
  const session = useSession();
  const canManage = session.permissions.has('api.notices.manage');
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [readsOf, setReadsOf] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [version, setVersion] = useState(0);
  const branches = useBranches();
  const list = useLoad(['notices', 'all'], async () => (canManage ? ((await api.GET('/api/notices', { params: { query: { limit: 100 } } })).data!.data as NoticeRow[]) : []));
  const one = useLoad(['notices', 'one', editing], async () => (editing ? ((await api.GET('/api/notices/{uuid}', { params: { path: { uuid: editing } } })).data!.data as NoticeRow) : null));
  const reads = useLoad(['notices', 'reads', readsOf], async () =>
    readsOf ? ((await api.GET('/api/notices/{uuid}/reads', { params: { path: { uuid: readsOf } , query: { limit: 100 } } })).data!.data as { user_uuid: string; name: string; read_at: string }[]) : null,
  );
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const title = String(f.get('title') ?? '').trim();
    const body = {
      title,
      body: String(f.get('body') ?? '').trim(),
      severity: String(f.get('severity') ?? 'info') as 'info' | 'warning' | 'critical',
      branch_uuid: String(f.get('branch_uuid') ?? '') || null,
      expires_at: dayIso(f.get('expires_on'), true),
      ...(dayIso(f.get('starts_on')) ? { starts_at: dayIso(f.get('starts_on'))! } : {}),
    };
    void action.run(async () => {
      setDone(null);
      if (editing) await api.PUT('/api/notices/{uuid}', { params: { path: { uuid: editing } }, body });
      else await api.POST('/api/notices', { body });
      setDone(editing ? `"${title}" saved.` : `"${title}" published.`);
      setEditing(null);
      setFormKey((k) => k + 1);
      setVersion((v) => v + 1);
      list.reload();
    });
  };
  const remove = (n: NoticeRow) =>
    ask({
      title: `Delete the notice "${n.title}"?`,
      body: 'Nobody sees it any more.',
      confirmLabel: 'Delete notice',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/notices/{uuid}', { params: { path: { uuid: n.uuid } } });
          setDone(`"${n.title}" deleted.`);
          setVersion((v) => v + 1);
          list.reload();
        }),
    });
  const columns: Column<NoticeRow>[] = [
    { header: 'Notice', cell: (n) => n.title },
    { header: 'How urgent', key: true, cell: (n) => SEVERITY[n.severity] ?? n.severity },
    { header: 'Shown to', key: true, cell: (n) => n.branch_name ?? 'the whole agency' },
    { header: 'From', key: true, cell: (n) => formatLondonDate(n.starts_at) },
    { header: 'Until', key: true, cell: (n) => (n.expires_at ? formatLondonDate(n.expires_at) : 'until deleted') },
    { header: 'Read by', key: true, cell: (n) => (n.read_count === 1 ? '1 person' : `${n.read_count} people`) },
    {
      header: 'Actions',
      key: true,
      cell: (n) => (
        <div className="button-row">
          <Button variant="secondary" aria-label={`Who read it: ${n.title}`} onPress={() => setReadsOf(n.uuid)}>
            Who read it
          </Button>
          <Button variant="secondary" aria-label={`Edit: ${n.title}`} onPress={() => setEditing(n.uuid)}>
            Edit
          </Button>
          <Button variant="danger" aria-label={`Delete: ${n.title}`} isDisabled={action.busy} onPress={() => remove(n)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];
  const n = editing ? one.data : null;
  const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');
  return (
    <>
      <PageTitle>Notices</PageTitle>
      <CurrentNotices version={version} />
      {canManage ? (
        <>
          <ProblemMessage problem={action.problem ?? list.problem} onRetry={list.reload} />
          <Notice text={done} />
          {list.data ? (
            <DataTable label="Notices" columns={columns} rows={list.data} rowKey={(x) => x.uuid} empty={<p>No notices yet. Write one below to tell your staff about a change, an office closure or an outage.</p>} />
          ) : (
            <p className="loading">Loading…</p>
          )}
          {readsOf && reads.data ? (
            <Section id="notice-reads" title="Who read it">
              {reads.data.length === 0 ? <p className="empty-state">Nobody has read it yet.</p> : (
                <ul>
                  {reads.data.map((r) => (
                    <li key={r.user_uuid}>
                      {r.name}, {formatLondonDateTime(r.read_at)}
                    </li>
                  ))}
                </ul>
              )}
            </Section>
          ) : null}
          <Section id="notice-form" title={editing ? 'Change the notice' : 'Write a notice'}>
            {editing && !n ? (
              <p className="loading">Loading…</p>
            ) : (
              <form key={`${formKey}-${editing ?? 'new'}`} className="form" onSubmit={save} aria-label={editing ? 'Change the notice' : 'Write a notice'}>
                <Labelled label="Title" required>
                  {(id) => <input id={id} name="title" required maxLength={200} defaultValue={n?.title ?? ''} />}
                </Labelled>
                <Labelled label="Message" required>
                  {(id) => <textarea id={id} name="body" rows={4} required maxLength={5000} defaultValue={n?.body ?? ''} />}
                </Labelled>
                <Labelled label="How urgent">
                  {(id) => (
                    <select id={id} name="severity" defaultValue={n?.severity ?? 'info'}>
                      <option value="info">For information</option>
                      <option value="warning">Warning</option>
                      <option value="critical">Urgent</option>
                    </select>
                  )}
                </Labelled>
                <Labelled label="Shown to">
                  {(id) => (
                    <select id={id} name="branch_uuid" defaultValue={n?.branch_uuid ?? ''}>
                      <option value="">The whole agency</option>
                      {(branches.data ?? []).map((b) => (
                        <option key={b.uuid} value={b.uuid}>
                          {b.name} branch
                        </option>
                      ))}
                    </select>
                  )}
                </Labelled>
                <Labelled label="Shown from" hint="Leave empty to show it now.">
                  {(id, d) => <input id={id} name="starts_on" type="date" defaultValue={day(n?.starts_at)} aria-describedby={d} />}
                </Labelled>
                <Labelled label="Shown until" hint="Leave empty to show it until it is deleted.">
                  {(id, d) => <input id={id} name="expires_on" type="date" defaultValue={day(n?.expires_at)} aria-describedby={d} />}
                </Labelled>
                <SubmitRow label={editing ? 'Save notice' : 'Publish notice'} busy={action.busy} onCancel={editing ? () => setEditing(null) : undefined} />
              </form>
            )}
          </Section>
        </>
      ) : (
        <p className="hint">Notices from your agency appear here.</p>
      )}
      {dialog}
    </>
  );
}

type RoleRow = { id: number; name: string; code: string; level: number; is_builtin: boolean; description: string; permissions: string[]; users_count: number };
type Permission = { key: string; description: string; default_roles: string[] };

/**
 * /roles: the agency's roles with what each may do (GET /api/admin/roles, GET
 * /api/admin/permissions); custom roles are added (POST), renamed (PUT /api/admin/roles/{id}),
 * given permissions (PUT .../{id}/permissions), their level changed (PUT
 * /api/admin/user-management-policy) and deleted after a confirmation (DELETE). The
 * built-in roles are shown, not changed. docs/users.md.
 */
export function RolesPage() {
  const session = useSession();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const [formKey, setFormKey] = useState(0);
  const roles = useLoad(['roles', 'all'], async () => (await api.GET('/api/admin/roles', { params: { query: { limit: 100 } } })).data!.data as RoleRow[]);
  // Every key, 200 a page (the API's most).
  const perms = useLoad(['permissions'], async () => {
    const all: Permission[] = [];
    for (let offset = 0; ; offset += 200) {
      const { data } = await api.GET('/api/admin/permissions', { params: { query: { limit: 200, offset } } });
      all.push(...(data!.data as Permission[]));
      if (data!.data.length < 200 || all.length >= data!.count) return all;
    }
  });
  const myLevel = session.me?.level ?? 0;
  const role = roles.data?.find((r) => r.id === picked) ?? null;
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const level = Number(f.get('level'));
    void action.run(async () => {
      setDone(null);
      const { data } = await api.POST('/api/admin/roles', { body: { name, level, description: String(f.get('description') ?? '').trim() } });
      setDone(`"${name}" added. Tick what it may do below.`);
      setPicked(data!.data.id);
      setFormKey((k) => k + 1);
      roles.reload();
    });
  };
  const saveRole = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!role) return;
    const f = new FormData(e.currentTarget);
    const permissions = f.getAll('permission').map(String);
    void action.run(async () => {
      setDone(null);
      await api.PUT('/api/admin/roles/{id}', { params: { path: { id: role.id } }, body: { name: String(f.get('name') ?? '').trim(), description: String(f.get('description') ?? '').trim() } });
      await api.PUT('/api/admin/roles/{id}/permissions', { params: { path: { id: role.id } }, body: { permissions } });
      // The management level (who may give the role) through the user-management policy.
      const level = f.get('level') === null ? null : Number(f.get('level'));
      if (level !== null && level !== role.level) await api.PUT('/api/admin/user-management-policy', { body: { id: role.id, level } });
      setDone(`"${String(f.get('name'))}" saved with ${permissions.length} permissions.`);
      roles.reload();
    });
  };
  const remove = (r: RoleRow) =>
    ask({
      title: `Delete the role "${r.name}"?`,
      body: r.users_count > 0 ? `${r.users_count} people have it; give them another role first.` : 'Nobody has it.',
      confirmLabel: 'Delete role',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/admin/roles/{id}', { params: { path: { id: r.id } } });
          setDone(`"${r.name}" deleted.`);
          setPicked(null);
          roles.reload();
        }),
    });
  const columns: Column<RoleRow>[] = [
    { header: 'Role', cell: (r) => r.name },
    { header: 'Kind', key: true, cell: (r) => (r.is_builtin ? 'Built in' : 'Your own') },
    { header: 'Level', key: true, cell: (r) => String(r.level) },
    { header: 'People', key: true, cell: (r) => String(r.users_count) },
    { header: 'May do', key: true, cell: (r) => `${r.permissions.length} things` },
    {
      header: 'Actions',
      key: true,
      cell: (r) => (
        <div className="button-row">
          <Button variant="secondary" aria-label={`${r.is_builtin ? 'Show' : 'Edit'}: ${r.name}`} onPress={() => setPicked(r.id)}>
            {r.is_builtin ? 'Show' : 'Edit'}
          </Button>
          {r.is_builtin ? null : (
            <Button variant="danger" aria-label={`Delete: ${r.name}`} isDisabled={action.busy} onPress={() => remove(r)}>
              Delete
            </Button>
          )}
        </div>
      ),
    },
  ];
  return (
    <>
      <PageTitle>Roles and permissions</PageTitle>
      <ProblemMessage problem={action.problem ?? roles.problem ?? perms.problem} onRetry={roles.reload} />
      <Notice text={done} />
      {roles.data ? <DataTable label="Roles" columns={columns} rows={roles.data} rowKey={(r) => String(r.id)} empty={<p>No roles. Add one below.</p>} /> : <p className="loading">Loading…</p>}
      {role && perms.data ? (
        <Section id="role-edit" title={role.is_builtin ? `What ${role.name} may do` : `Change ${role.name}`}>
          <form key={`role-${role.id}`} className="form" onSubmit={saveRole} aria-label={`Change ${role.name}`}>
            {role.is_builtin ? null : (
              <>
                <Labelled label="Name" required>
                  {(id) => <input id={id} name="name" required maxLength={100} defaultValue={role.name} />}
                </Labelled>
                <Labelled label="Description">{(id) => <input id={id} name="description" maxLength={500} defaultValue={role.description} />}</Labelled>
                {session.permissions.has('api.admin.user_management_policy.manage') ? (
                  <Labelled label="Level" required hint={`From 0 to ${Math.max(0, myLevel - 1)}: people may only give roles below their own level.`}>
                    {(id, d) => <input id={id} name="level" type="number" min={0} max={Math.max(0, myLevel - 1)} required inputMode="numeric" defaultValue={role.level} aria-describedby={d} />}
                  </Labelled>
                ) : null}
              </>
            )}
            <fieldset className="permissions">
              <legend>May do</legend>
              {perms.data.map((p) => (
                <label key={p.key} className="checkbox-native">
                  <input type="checkbox" name="permission" value={p.key} defaultChecked={role.permissions.includes(p.key)} disabled={role.is_builtin} /> {p.description || p.key}
                </label>
              ))}
            </fieldset>
            {role.is_builtin ? null : (
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Save role
                </Button>
              </div>
            )}
          </form>
        </Section>
      ) : null}
      <Section id="role-add" title="Add a role">
        <form key={formKey} className="form inline" onSubmit={add} aria-label="Add a role">
          <Labelled label="Name" required>
            {(id) => <input id={id} name="name" required maxLength={100} />}
          </Labelled>
          <Labelled label="Level" required hint={`From 1 to ${Math.max(1, myLevel - 1)}: below your own; people may only give roles below their level.`}>
            {(id, d) => <input id={id} name="level" type="number" min={1} max={Math.max(1, myLevel - 1)} required inputMode="numeric" aria-describedby={d} />}
          </Labelled>
          <Labelled label="Description">{(id) => <input id={id} name="description" maxLength={500} />}</Labelled>
          <div className="button-row">
            <Button type="submit" isDisabled={action.busy}>
              Add role
            </Button>
          </div>
        </form>
      </Section>
      {dialog}
    </>
  );
}
