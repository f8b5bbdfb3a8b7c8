/**
 * What the job page shows of its conversations before the Messages tab is opened
 * (docs/conversations.md "In the console"): the permission that opens them, the caller's threads of
 * the job (GET /api/jobs/{uuid}/threads) kept fresh by the live stream, and the tab's label with the
 * unread count. Kept apart from the tab itself (job-conversations.tsx, loaded when the tab is
 * opened) so that the job page's first view does not download the tab (docs/console.md "How it is
 * built and served").
 */
import { useState } from 'react';
import { api } from '../api.ts';
import { useLiveEvents } from '../live.ts';
import { useSession } from '../session.tsx';
import type { Thread } from '../types.ts';
import { useLoad } from '../ui.tsx';

/** The permission that opens the conversation endpoints. */
export const CONVERSATIONS_PERMISSION = 'api.jobs.conversations.manage';

/** The threads of a job and a counter that moves when a live event says a thread changed. */
export interface Conversations {
  threads: ReturnType<typeof useLoad<Thread[]>>;
  /** Bumped on each live conversation event; the open thread refetches its messages when it moves. */
  tick: number;
}

/**
 * Loads the caller's threads of job `jobUuid` (none without the permission) and refetches them when
 * a live event says a message was posted or a note added (notes show in threads), or on `resync`.
 */
export function useConversations(jobUuid: string): Conversations {
  const session = useSession();
  const allowed = session.permissions.has(CONVERSATIONS_PERMISSION);
  const threads = useLoad(['jobs', jobUuid, 'threads', allowed], async () =>
    allowed ? (await api.GET('/api/jobs/{uuid}/threads', { params: { path: { uuid: jobUuid } } })).data!.data : [],
  );
  const [tick, setTick] = useState(0);
  useLiveEvents(allowed ? jobUuid : null, (e) => {
    if (e.type === 'conversation.message_posted' || e.type === 'job.note_added' || e.type === 'resync') {
      threads.reload();
      setTick((n) => n + 1);
    }
  });
  return { threads, tick };
}

/** The tab's label: "Messages" and, when some are unread, a badge "2 unread". */
export function MessagesTabLabel({ threads }: { threads: Thread[] | null }) {
  const unread = (threads ?? []).reduce((n, t) => n + t.unread_count, 0);
  return (
    <>
      Messages
      {unread > 0 ? ' ' : null}
      {unread > 0 ? <span className="badge badge-unread">{`${unread} unread`}</span> : null}
    </>
  );
}

