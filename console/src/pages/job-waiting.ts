/**
 * The job page's view of the outbox (outbox.ts, docs/console.md "On a phone: the installable
 * app"): the writes of a job still waiting on the phone, and a reload once one of them was sent.
 */
import { useEffect, useRef } from 'react';
import type { OutboxEntry } from '../outbox.ts';
import { useOutbox } from '../phone.tsx';

/** Calls `reload` after the outbox has sent a write of job `uuid` (the page shows it as done). */
export function useReloadWhenSent(uuid: string, reload: () => void) {
  const sent = useOutbox().sent.filter((d) => d.jobUuid === uuid).length;
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(() => {
    if (sent > 0) latest.current();
  }, [sent]);
}

/** The outbox's writes of kinds `kinds` for job `uuid`, oldest first. */
export function useWaiting(uuid: string, kinds: Array<OutboxEntry['kind']>): OutboxEntry[] {
  return useOutbox().waiting.filter((e) => e.jobUuid === uuid && kinds.includes(e.kind));
}
