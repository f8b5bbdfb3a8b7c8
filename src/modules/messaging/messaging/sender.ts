/**
 * Sends queued deliveries (docs/messaging.md "How a message is sent"): e-mail through the
 * mailer, push through the push module. Runs outside any transaction: on every worker each
 * `CARETAKER_QUEUE_SEND_INTERVAL_MS` and after each batch of planned messages (the task's drain),
 * `CARETAKER_QUEUE_SEND_CONCURRENCY` at once, and every minute as the periodic task
 * `messaging.send`. Each attempt is counted on the row before it starts; a failure
 * is retried with backoff (1 min, 5 min, 30 min, 2 h, 6 h) and the row is `failed` after
 * MAX_ATTEMPTS. Rows are claimed with their attempt counted in one statement that skips rows
 * another sender holds, so a message goes out once even with several workers.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import { addSeconds } from '../../../lib/clock.ts';
import { forEachUntil } from '../../../lib/concurrency.ts';
import { deliverPush, PUSH_NOT_CONFIGURED } from '../push/index.ts';
import { sendSms } from '../sms/index.ts';
import { claimDueDeliveries, markSent, releaseDeliveries, updateDelivery, type ClaimedDelivery } from './deliveries.repository.ts';
import type { Rendered } from './render.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

/** Attempts before a delivery is given up (`failed`). */
export const MAX_ATTEMPTS = 6;
/** Seconds to wait after the n-th failed attempt (n = 1..5). */
export const BACKOFF_S = [60, 300, 1_800, 7_200, 21_600];
/** How long a claimed row is held by one sender before another may take it, seconds. */
const LEASE_S = 600;

/**
 * Sends one claimed delivery.
 * @returns `error` null on success, else the error text; `final` when the row must not be retried
 *   (`failed` or `suppressed`) and `reason` for a final state with a known cause (`not_configured`:
 *   no provider of any of the user's device platforms is set up, or the tokens on the configured
 *   ones were all pruned as dead: a retry cannot succeed)
 */
async function attempt(deps: AppDeps, d: ClaimedDelivery): Promise<{ error: string | null; final?: string; reason?: string }> {
  const content = (typeof d.content === 'string' ? JSON.parse(d.content) : d.content) as (Rendered & { data?: Record<string, string>; replyTo?: string; thread_id?: number | null }) | null;
  if (!content) return { error: 'nothing to send', final: 'failed' };
  try {
    if (d.channel === 'email') {
      await deps.mailer.send({
        to: d.recipient_address!, subject: content.subject ?? '', text: content.text ?? '', ...(content.html ? { html: content.html } : {}), ...(content.replyTo ? { replyTo: content.replyTo } : {}),
      });
      return { error: null };
    }
    if (d.channel === 'sms') {
      return await sendSms(deps, { deliveryId: d.id, agencyId: d.agency_id, to: d.recipient_address!, text: content.text ?? '', threadId: content.thread_id ?? null });
    }
    const results = await deliverPush(deps, { userId: d.recipient_user_id!, title: content.title ?? '', body: content.body ?? '', ...(content.data ? { data: content.data } : {}) });
    if (results.length === 0) return { error: 'no device token', final: 'suppressed' };
    if (results.some((r) => r.status === 'sent')) return { error: null };
    const unconfigured = (r: (typeof results)[number]) => r.status === 'failed' && r.error === PUSH_NOT_CONFIGURED;
    if (results.every(unconfigured)) return { error: 'no push provider is configured for the device', final: 'failed', reason: 'not_configured' };
    const errors = results.map((r) => `${r.platform} #${r.deviceTokenId}: ${r.status}${r.error ? ` (${r.error})` : ''}`).join('; ');
    // Every token dead (pruned) or on a platform without a provider: a retry cannot succeed either.
    if (results.every((r) => r.status === 'removed' || unconfigured(r))) return { error: errors, final: 'failed', ...(results.some(unconfigured) ? { reason: 'not_configured' } : {}) };
    return { error: errors };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Rows one call of the sender takes at most. */
const SEND_BATCH = 200;
/** Rows claimed at once, in rounds of `CARETAKER_QUEUE_SEND_CONCURRENCY` sends. */
const CLAIM_ROUNDS = 5;

/**
 * Sends every queued delivery that is due, `CARETAKER_QUEUE_SEND_CONCURRENCY` at once.
 * @param opts.limit at most this many rows in one call (default 200)
 * @returns counts of rows sent, retried later, given up (failed) and suppressed
 */
export async function sendDueDeliveries(deps: AppDeps, opts: { limit?: number } = {}) {
  return (await sendBatch(deps, opts.limit ?? SEND_BATCH)).counts;
}

/**
 * sendDueDeliveries, also returning how many rows were due (the limit when more may wait). Rows
 * are claimed a few rounds of sends at a time in one statement, and the sent ones of a claim are
 * marked in one statement (docs/operations.md "Queue sizing"); a failure is recorded on its row.
 */
async function sendBatch(deps: AppDeps, limit: number, signal?: AbortSignal) {
  const counts = { sent: 0, retrying: 0, failed: 0, suppressed: 0 };
  const concurrency = deps.config.queue.sendConcurrency;
  let due = 0;
  while (due < limit && !signal?.aborted) {
    const now = deps.clock.now();
    const asked = Math.min(limit - due, CLAIM_ROUNDS * concurrency);
    const claimed = await claimDueDeliveries(deps.db, now, addSeconds(now, LEASE_S), asked);
    due += claimed.length;
    const sent: number[] = [];
    let unsent: number[] = [];
    try {
      // Once the worker shuts down no more sends start; the claimed rows not sent are given back.
      const skipped = await forEachUntil(claimed, concurrency, signal, async (d) => {
        const { error, final, reason } = await attempt(deps, d);
        if (error === null) {
          sent.push(d.id);
          counts.sent += 1;
          return;
        }
        const at = deps.clock.now();
        if (final === 'suppressed') {
          await updateDelivery(deps.db, d.id, { status: 'suppressed', reason: reason ?? 'no_device', updated_at: at, next_attempt_at: null, content: null });
          counts.suppressed += 1;
        } else if (final === 'failed' || d.attempts >= MAX_ATTEMPTS) {
          await updateDelivery(deps.db, d.id, { status: 'failed', ...(reason ? { reason } : {}), last_error: cutGraphemes(error, 1_000), updated_at: at, next_attempt_at: null, content: null });
          counts.failed += 1;
        } else {
          const wait = BACKOFF_S[Math.min(d.attempts, BACKOFF_S.length) - 1]!;
          await updateDelivery(deps.db, d.id, { last_error: cutGraphemes(error, 1_000), updated_at: at, next_attempt_at: addSeconds(at, wait) });
          counts.retrying += 1;
        }
      });
      unsent = skipped.map((d) => d.id);
    } finally {
      // Tried once more on failure: unrecorded, the claim's sent messages go again after the lease.
      const at = deps.clock.now();
      await markSent(deps.db, sent, at).catch(() => markSent(deps.db, sent, at));
      await releaseDeliveries(deps.db, unsent, at);
    }
    if (claimed.length < asked) break;
  }
  return { counts, due };
}

/** Every minute: sends the queued deliveries that are due. */
export const messagingSendTask: PeriodicTask = {
  name: 'messaging.send',
  cron: '* * * * *',
  async run(deps, _log, signal) {
    await sendBatch(deps, SEND_BATCH, signal);
  },
  async drain(deps, signal) {
    return (await sendBatch(deps, SEND_BATCH, signal)).due === SEND_BATCH;
  },
};
