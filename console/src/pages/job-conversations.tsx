/**
 * The job page's "Messages" tab (docs/conversations.md "In the console"): the caller's threads of
 * the job by audience (GET /api/jobs/{uuid}/threads) with their unread counts, the chosen thread's
 * messages oldest first (GET .../threads/{audience}/messages), a reply box with an optional
 * attachment (uploaded as a job file, then named in POST .../messages), and the thread marked read
 * while it is open (POST .../read). New messages show without a reload (`conversation.message_posted`
 * on the live stream, docs/live-updates.md). Which threads appear is the API's rule: staff every
 * thread, a tenant, contractor or landlord only their own.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import type { Thread, ThreadMessage } from '../types.ts';
import { Button, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import type { Conversations } from './job-threads.tsx';

type Audience = Thread['audience'];

/** Each thread named in the people's words. */
export const THREAD_NAMES: Record<Audience, string> = {
  tenant: 'Tenant and agency',
  contractor: 'Contractor and agency',
  landlord: 'Landlord and agency',
  internal: 'Internal (agency only)',
};

const OTHER_SIDE: Record<Audience, string> = { tenant: 'the tenant', contractor: 'the contractor', landlord: 'the landlord', internal: 'agency staff' };

const ROLES: Record<string, string> = { staff: 'Agency', tenant: 'Tenant', contractor: 'Contractor', landlord: 'Landlord', system: 'Sent automatically' };

/** The reader's side of a thread: tenant, contractor or landlord as themselves, every other role staff. */
function sideOf(role: string | undefined): string {
  const r = (role ?? '').toLowerCase();
  return r === 'tenant' || r === 'contractor' || r === 'landlord' ? r : 'staff';
}

/** How an entry came in: "by e-mail", "by SMS", "in the console", "case note". */
export function channelLabel(channel: string): string {
  switch (channel) {
    case 'web':
      return 'in the console';
    case 'email':
      return 'by e-mail';
    case 'sms':
      return 'by SMS';
    case 'note':
      return 'case note';
    default:
      return channel ? `by ${channel}` : '';
  }
}

/** "1.2 MB", "340 KB" from bytes. */
function formatSize(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/**
 * What to do in an empty thread, said to the reader: staff write to the other side (who get it by
 * e-mail and can answer it); a tenant, contractor or landlord writes to the agency.
 */
export function emptyThreadText(audience: Audience, staff: boolean): string {
  if (!staff) return 'No messages yet. Write to the agency below; they see it straight away and their answer shows here and by e-mail.';
  if (audience === 'internal') return 'No messages yet. Write below to other agency staff; tenants, contractors and landlords never see this thread.';
  return `No messages yet. Write to ${OTHER_SIDE[audience]} below; they get it by e-mail and can reply to it.`;
}

/**
 * The Messages tab: the thread list (when the caller has more than one thread), the chosen thread
 * (`?thread=`, else the first with unread messages, else the first) and its reply box.
 */
export function ConversationsPanel({ jobUuid, conversations }: { jobUuid: string; conversations: Conversations }) {
  const { threads, tick } = conversations;
  const [search, setSearch] = useSearchParams();
  const list = threads.data ?? [];
  const asked = list.find((t) => t.audience === search.get('thread'));
  const fallback = list.find((t) => t.unread_count > 0) ?? list[0];
  const selected = asked ?? fallback ?? null;
  const choose = useCallback(
    (audience: Audience) =>
      setSearch(
        (p) => {
          p.set('thread', audience);
          return p;
        },
        { replace: true },
      ),
    [setSearch],
  );
  // Pin the first choice in the address, so reading its messages does not move the selection.
  const fallbackAudience = fallback?.audience;
  useEffect(() => {
    if (!asked && fallbackAudience) choose(fallbackAudience);
  }, [asked, fallbackAudience, choose]);
  return (
    <section aria-labelledby="messages-title" className="conversations">
      <h2 id="messages-title">Messages</h2>
      <ProblemMessage problem={threads.problem} onRetry={threads.reload} />
      {threads.loading && !threads.data ? <p>Loading messages…</p> : null}
      {threads.data && list.length === 0 ? <p>No conversations on this job for your account.</p> : null}
      {list.length > 1 ? (
        <ul className="thread-list" aria-label="Threads">
          {list.map((t) => (
            <li key={t.audience}>
              <button
                type="button"
                className="thread-choice"
                aria-current={selected?.audience === t.audience ? 'true' : undefined}
                onClick={() => choose(t.audience)}
              >
                <span className="thread-name">
                  {THREAD_NAMES[t.audience]}
                  {t.unread_count > 0 ? ' ' : null}
                  {t.unread_count > 0 ? <span className="badge badge-unread">{`${t.unread_count} unread`}</span> : null}
                </span>{' '}
                <span className="thread-preview">{t.last_message_preview ?? 'No messages yet'}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {selected ? <ThreadView key={selected.audience} jobUuid={jobUuid} thread={selected} tick={tick} onChanged={threads.reload} /> : null}
    </section>
  );
}

const PAGE = 50;

/**
 * One thread: its entries oldest first (the newest `PAGE`, more on request), marked read while
 * shown, and the reply box. `tick` moves on live events (refetch); `onChanged` refetches the thread list.
 */
function ThreadView({ jobUuid, thread, tick, onChanged }: { jobUuid: string; thread: Thread; tick: number; onChanged: () => void }) {
  const session = useSession();
  const side = sideOf(session.me?.role);
  const staff = side === 'staff';
  const audience = thread.audience;
  const path = { path: { uuid: jobUuid, audience } };
  const [limit, setLimit] = useState(PAGE);
  const [sent, setSent] = useState(0);
  const messages = useLoad(async () => {
    const { data } = await api.GET('/api/jobs/{uuid}/threads/{audience}/messages', { params: { ...path, query: { limit, offset: 0 } } });
    return { rows: [...data!.data].reverse(), count: data!.count };
  }, [jobUuid, audience, limit, tick, sent]);
  // Opened (or a new message arrived while open): mark the thread read, once at a time.
  const marking = useRef(false);
  const markRead = useEffectEvent(() => {
    marking.current = true;
    api
      .POST('/api/jobs/{uuid}/threads/{audience}/read', { params: path, body: {} })
      .then(onChanged, () => undefined)
      .finally(() => (marking.current = false));
  });
  useEffect(() => {
    if (thread.unread_count === 0 || !messages.data || marking.current) return;
    markRead();
  }, [thread.unread_count, messages.data]);

  const action = useAction();
  const [text, setText] = useState('');
  const [urgent, setUrgent] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) {
      action.setProblem({ message: 'Write a message first.', field: 'body', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const file = fileRef.current?.files?.[0];
    void action.run(async () => {
      const attachment = file ? await uploadAttachment(jobUuid, file, audience === 'internal') : null;
      await api.POST('/api/jobs/{uuid}/threads/{audience}/messages', {
        params: path,
        body: { body, ...(attachment ? { attachment_uuids: [attachment] } : {}), ...(urgent ? { urgent: true } : {}) },
      });
      setText('');
      setUrgent(false);
      if (fileRef.current) fileRef.current.value = '';
      setSent((n) => n + 1);
      onChanged();
    });
  };
  const rows = messages.data?.rows ?? [];
  const bodyError = action.problem?.field === 'body' ? action.problem.message : null;
  const smsCopy = staff && (audience === 'tenant' || audience === 'contractor');
  return (
    <div className="thread">
      <h3>{THREAD_NAMES[audience]}</h3>
      <ProblemMessage problem={messages.problem} onRetry={messages.reload} />
      {messages.data && messages.data.count > rows.length ? (
        <Button variant="secondary" onPress={() => setLimit((n) => Math.min(200, n + PAGE))} isDisabled={limit >= 200}>
          {limit >= 200 ? `Showing the latest 200 of ${messages.data.count}` : 'Show earlier messages'}
        </Button>
      ) : null}
      {messages.data && rows.length === 0 ? <p className="empty-state">{emptyThreadText(audience, staff)}</p> : null}
      <div role="log" aria-label={`Messages: ${THREAD_NAMES[audience]}`}>
        <ol className="messages">
          {rows.map((m) => (
            <MessageItem key={m.uuid} message={m} ours={m.author_kind === side} />
          ))}
        </ol>
      </div>
      <form className="form reply" onSubmit={onSubmit} aria-label="Reply">
        <div className="field">
          <label htmlFor={`reply-${audience}`}>
            {staff ? (audience === 'internal' ? 'Message to agency staff' : `Message to ${OTHER_SIDE[audience]}`) : 'Message to the agency'}
          </label>
          <textarea
            id={`reply-${audience}`}
            rows={3}
            maxLength={10_000}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={bodyError ? true : undefined}
            aria-describedby={`reply-${audience}-hint${bodyError ? ` reply-${audience}-error` : ''}`}
          />
          <p id={`reply-${audience}-hint`} className="hint">
            {!staff
              ? 'The agency sees it straight away.'
              : audience === 'internal'
                ? 'Only agency staff see it.'
                : `${OTHER_SIDE[audience][0]!.toUpperCase()}${OTHER_SIDE[audience].slice(1)} gets it by e-mail${smsCopy ? ' (and by text message when we have their mobile)' : ''} and can reply to it.`}
          </p>
          {bodyError ? (
            <p id={`reply-${audience}-error`} className="field-error">
              {bodyError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`attach-${audience}`}>Attach a photo or document (optional)</label>
          <input
            id={`attach-${audience}`}
            ref={fileRef}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.txt"
          />
        </div>
        {smsCopy ? (
          <label className="checkbox-line">
            <input type="checkbox" checked={urgent} onChange={(e) => setUrgent(e.target.checked)} />
            Urgent: send the text message even in quiet hours
          </label>
        ) : null}
        {!bodyError ? <ProblemMessage problem={action.problem} /> : null}
        <div className="button-row">
          <Button type="submit" isDisabled={action.busy}>
            {action.busy ? 'Sending…' : 'Send'}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** One entry: author and role, the text, attachments as links, the London time and the channel; `ours` (the reader's side) to the right. */
function MessageItem({ message: m, ours }: { message: ThreadMessage; ours: boolean }) {
  const channel = channelLabel(m.channel);
  return (
    <li className={`message${ours ? ' ours' : ''}${m.kind === 'note' ? ' is-note' : ''}`}>
      <p className="message-author">
        <strong>{m.author_name}</strong>
        <span className="message-role">{ROLES[m.author_kind] ?? m.author_kind}</span>
        {m.urgent ? <span className="badge">Urgent</span> : null}
      </p>
      <p className="message-body">{m.body}</p>
      {m.attachments.length > 0 ? (
        <ul className="attachments" aria-label="Attachments">
          {m.attachments.map((a) => (
            <li key={a.uuid}>
              <a href={a.download_url} target="_blank" rel="noreferrer">
                {a.filename}
              </a>{' '}
              <span className="meta-inline">
                ({a.kind}, {formatSize(a.size_bytes)})
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="meta">
        <time dateTime={m.created_at}>{m.created_at_text}</time>
        {channel ? <span>{channel}</span> : null}
      </p>
    </li>
  );
}

/**
 * Uploads `file` to the job as a photo (an image) or a document (anything else), staff-only in
 * the internal thread (docs/job-files.md). @returns the new file's uuid
 */
async function uploadAttachment(jobUuid: string, file: File, internal: boolean): Promise<string> {
  const body = { file, ...(internal ? { internal: true } : {}) };
  const params = { path: { uuid: jobUuid } };
  const answer = file.type.startsWith('image/')
    ? await api.POST('/api/jobs/{uuid}/photos', { params, body })
    : await api.POST('/api/jobs/{uuid}/documents', { params, body });
  return (answer.data as { data: { uuid: string } }).data.uuid;
}
