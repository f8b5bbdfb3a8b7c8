/**
 * Delivery of webhook messages (docs/webhooks.md): the fan-out handler queues one delivery per
 * (subscribed endpoint, event) in the event's agency; the periodic task sends what is due,
 * signed as Standard Webhooks says (`webhook-id`, `webhook-timestamp`, `webhook-signature`, via
 * the `standardwebhooks` library), and retries failures with exponential backoff for up to 3
 * days. A message that fails for 3 days, with no success of its endpoint meanwhile, disables the
 * endpoint and e-mails the agency's administrators. A failure no retry can mend (permanentFailure:
 * the host does not exist, or the target policy refuses its address) fails the message at once and
 * disables the endpoint, so its other messages are not tried again and again.
 */
import { Webhook } from 'standardwebhooks';
import type { AppDeps } from '../../../app-deps.ts';
import { EVENT_CATALOGUE, type EventHandler, type EventName, type PeriodicTask } from '../../../events/index.ts';
import { onceInTransaction } from '../../../db/transaction-memo.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { forEachUntil } from '../../../lib/concurrency.ts';
import { currentTraceparent, inSpan, tracingEnabled } from '../../../lib/tracing.ts';
import { CancelledRequestError, outboundRequest, RefusedTargetError } from '../../../lib/outbound-http.ts';
import * as repo from './webhooks.repository.ts';

/** Seconds to wait after the n-th failed attempt (n = 1, 2, ...; the last value repeats). */
export const BACKOFF_S = [60, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 12 * 3600];
/** How long a message is retried, in seconds. */
export const RETRY_WINDOW_S = 3 * 24 * 3600;
/** Most deliveries one tick sends. */
const BATCH = 100;

/** The signature header value: one `v1,<base64>` per valid secret, space-separated. */
export function signatures(secrets: string[], messageId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
}

/** Secrets that sign at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: repo.EndpointRow, now: Date): string[] {
  const overlap = endpoint.previous_secret && endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at) > now;
  return overlap ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/** True when `endpoint` subscribes to `name` (an exact name or `*`). */
export function subscribes(endpoint: repo.EndpointRow, name: string): boolean {
  const events = (typeof endpoint.events === 'string' ? JSON.parse(endpoint.events) : endpoint.events) as string[];
  return events.includes('*') || events.includes(name);
}

/**
 * Queues the message of an event (or a test ping) for one endpoint.
 * @returns the delivery row, or undefined when that message was already queued for the endpoint
 */
export function queueDelivery(
  db: Parameters<typeof repo.insertDelivery>[0],
  endpoint: repo.EndpointRow,
  msg: { messageId: string; type: string; occurredAt: Date; data: unknown },
  now: Date,
) {
  const body = { type: msg.type, timestamp: msg.occurredAt.toISOString(), data: msg.data };
  // The queuing span (the event's job, or the request of a test ping): the delivery joins its trace.
  const traceparent = currentTraceparent();
  return repo.insertDelivery(db, {
    ...(traceparent ? { traceparent } : {}),
    uuid: newUuid(),
    agency_id: endpoint.agency_id,
    endpoint_id: endpoint.id,
    message_id: msg.messageId,
    event_name: msg.type,
    payload: JSON.stringify(body),
    status: 'pending',
    next_attempt_at: now,
    created_at: now,
  });
}

/** Fan-out: one delivery per enabled, subscribed endpoint of the event's agency. */
export const fanoutHandler: EventHandler = {
  name: 'webhooks.fanout',
  events: Object.keys(EVENT_CATALOGUE) as EventName[],
  async handle(event, { deps, trx }) {
    if (event.agencyId === null) return;
    const now = deps.clock.now();
    // Read once per transaction: a queue batch's events mostly share their agency's endpoints.
    const endpoints = await onceInTransaction(trx, `webhook-endpoints|${event.agencyId}`, () => repo.enabledEndpoints(trx, event.agencyId!));
    for (const endpoint of endpoints) {
      if (!subscribes(endpoint, event.name)) continue;
      await queueDelivery(trx, endpoint, { messageId: `msg_${event.id}`, type: event.name, occurredAt: event.occurredAt, data: event.payload }, now);
    }
  },
};

/**
 * Why a failed attempt can never succeed as the endpoint stands, or undefined for a failure a
 * retry may mend (a status, a timeout, a refused or reset connection, a DNS server that did not
 * answer: EAI_AGAIN). Permanent: the host does not exist (the resolver's NXDOMAIN, ENOTFOUND) or
 * it resolves to an address the target policy refuses (docs/webhooks.md "Targets").
 * @returns the endpoint's disabled_reason, e.g. `The host hooks.example.invalid does not exist`
 */
export function permanentFailure(err: unknown, url: string): string | undefined {
  const host = new URL(url).hostname;
  if (err instanceof RefusedTargetError) return `The address of ${host} is not allowed`;
  if ((err as NodeJS.ErrnoException | undefined)?.code === 'ENOTFOUND') return `The host ${host} does not exist`;
  return undefined;
}

/**
 * Disables the endpoint after persistent failure (`reason`, default: failures for the whole retry
 * window) and tells the agency's administrators.
 */
async function disableEndpoint(deps: AppDeps, endpoint: repo.EndpointRow, now: Date, reason = `Deliveries failed for ${RETRY_WINDOW_S / 86_400} days`): Promise<void> {
  await repo.updateEndpoint(deps.db, endpoint.id, { enabled: false, disabled_reason: reason, updated_at: now });
  for (const to of await repo.adminEmails(deps.db, endpoint.agency_id)) {
    await deps.mailer
      .send({
        to,
        subject: 'Caretaker webhook endpoint disabled',
        text:
          `The webhook endpoint ${endpoint.url} was disabled: ${reason.toLowerCase()}.\n\n` +
          `Check the receiver, then re-enable it with PUT /api/webhooks/endpoints/${endpoint.uuid} {"enabled": true} ` +
          `and retry the failed deliveries (GET /api/webhooks/deliveries?status=failed).\n`,
      })
      .catch(() => undefined);
  }
}

/** Seconds past the request deadline that a claimed attempt stays claimed (then it is due again). */
export const LEASE_MARGIN_S = 60;
/** Deliveries claimed at once, in rounds of `CARETAKER_QUEUE_SEND_CONCURRENCY` requests. */
const CLAIM_ROUNDS = 5;

/** A sent attempt the endpoint accepted, recorded with others of its claim (repo.markSucceeded). */
type Accepted = { id: number; code: number; durationMs: number };

/**
 * Makes one attempt at a delivery and records it: succeeded on a 2xx; else pending with the next
 * attempt after the backoff, or failed when that would fall outside the 3-day window. The attempt
 * is counted before the request is sent (repo.claimDelivery), so one re-sent after a worker died
 * mid-send counts as the next attempt, never again as the first. While tracing is on the attempt
 * is a span `webhook <event name>` in the trace of the request that caused the event
 * (docs/operations.md "Tracing"); the POST is its child and carries `traceparent`.
 * @param known the delivery's endpoint when the caller read it already
 */
export async function attemptDelivery(deps: AppDeps, delivery: repo.DeliveryRow, known?: repo.EndpointRow): Promise<void> {
  const endpoint = known ?? (await repo.endpointById(deps.db, delivery.endpoint_id));
  if (!endpoint) return;
  const now = deps.clock.now();
  const lease = new Date(now.getTime() + deps.config.webhooks.timeoutMs + LEASE_MARGIN_S * 1000);
  const attempts = await repo.claimDelivery(deps.db, delivery.id, now, lease);
  if (attempts === undefined) return;
  const accepted = await sendClaimed(deps, endpoint, delivery, attempts, now);
  if (accepted && accepted !== 'cancelled') await repo.markSucceeded(deps.db, [accepted]);
}

/**
 * Sends one claimed attempt (number `attempts`, counted at `claimedAt`) in its span while tracing
 * is on, and records a failure on its row.
 * @returns the accepted attempt for the caller to record, or undefined when it failed
 */
function sendClaimed(deps: AppDeps, endpoint: repo.EndpointRow, delivery: repo.DeliveryRow, attempts: number, claimedAt: Date, signal?: AbortSignal): Promise<Accepted | 'cancelled' | undefined> {
  if (!tracingEnabled()) return sendClaimedUntraced(deps, endpoint, delivery, attempts, claimedAt, signal);
  return inSpan(
    `webhook ${delivery.event_name}`,
    {
      kind: 'internal',
      traceparent: delivery.traceparent,
      attributes: { 'caretaker.webhook.delivery': delivery.uuid, 'caretaker.webhook.message_id': delivery.message_id, 'caretaker.webhook.attempt': attempts },
    },
    () => sendClaimedUntraced(deps, endpoint, delivery, attempts, claimedAt, signal),
  );
}

async function sendClaimedUntraced(deps: AppDeps, endpoint: repo.EndpointRow, delivery: repo.DeliveryRow, attempts: number, now: Date, signal?: AbortSignal): Promise<Accepted | 'cancelled' | undefined> {
  const body = typeof delivery.payload === 'string' ? delivery.payload : JSON.stringify(delivery.payload);
  const started = process.hrtime.bigint();
  let code: number | null = null;
  let error: string | null = null;
  let permanent: string | undefined;
  try {
    const res = await outboundRequest({
      method: 'POST',
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Caretaker-Webhooks/2.0',
        'webhook-id': delivery.message_id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signatures(signingSecrets(endpoint, now), delivery.message_id, now, body),
      },
      body,
      timeoutMs: deps.config.webhooks.timeoutMs,
      refusePrivate: true,
      allowLoopback: deps.config.webhooks.allowLoopback,
      maxResponseBytes: 1024,
      signal,
    });
    code = res.status;
    if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
  } catch (err) {
    // Cut off by a shutdown: not an attempt of the endpoint's; the caller gives the delivery back.
    if (err instanceof CancelledRequestError) return 'cancelled';
    error = err instanceof Error ? err.message : String(err);
    permanent = permanentFailure(err, endpoint.url);
  }
  const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  if (error === null) return { id: delivery.id, code: code!, durationMs };
  const common = { last_attempt_at: now, last_response_code: code, last_duration_ms: durationMs, last_error: error };
  if (permanent !== undefined) {
    // No retry can mend it: this message fails now, and the endpoint stops until someone fixes it
    // (its other pending messages wait, unclaimed, and go once it is re-enabled).
    // The claim's messages share this endpoint object: the first to fail disables it, once.
    const first = endpoint.enabled;
    endpoint.enabled = false;
    await repo.updateDelivery(deps.db, delivery.id, { ...common, status: 'failed', next_attempt_at: null });
    if (first) await disableEndpoint(deps, endpoint, now, permanent);
    return undefined;
  }
  const next = new Date(now.getTime() + BACKOFF_S[Math.min(attempts, BACKOFF_S.length) - 1]! * 1000);
  if (next.getTime() - new Date(delivery.created_at).getTime() <= RETRY_WINDOW_S * 1000) {
    await repo.updateDelivery(deps.db, delivery.id, { ...common, status: 'pending', next_attempt_at: next });
    return undefined;
  }
  await repo.updateDelivery(deps.db, delivery.id, { ...common, status: 'failed', next_attempt_at: null });
  const success = await repo.lastSuccessAt(deps.db, endpoint.id);
  if (endpoint.enabled && (!success || success < new Date(delivery.created_at))) await disableEndpoint(deps, endpoint, now);
  return undefined;
}

/**
 * Sends up to 100 due deliveries, `CARETAKER_QUEUE_SEND_CONCURRENCY` at once. Deliveries are
 * claimed a few rounds of requests at a time in one statement (their lease covers those rounds)
 * and the accepted ones of a claim recorded in one statement (docs/operations.md "Queue sizing").
 * Once `signal` is aborted (the worker is shutting down) nothing more is claimed or sent, requests
 * in flight are ended, and the claimed deliveries not sent are given back due now, their attempt
 * not counted (docs/operations.md "Shutdown and health").
 * @returns the number found due (100 when more may wait)
 */
export async function deliverDue(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const concurrency = deps.config.queue.sendConcurrency;
  let due = 0;
  while (due < BATCH && !signal?.aborted) {
    const now = deps.clock.now();
    const asked = Math.min(BATCH - due, CLAIM_ROUNDS * concurrency);
    const lease = new Date(now.getTime() + CLAIM_ROUNDS * deps.config.webhooks.timeoutMs + LEASE_MARGIN_S * 1000);
    const claimed = await repo.claimDueDeliveries(deps.db, now, lease, asked);
    due += claimed.length;
    const endpoints = new Map((await repo.endpointsByIds(deps.db, [...new Set(claimed.map((d) => d.endpoint_id))])).map((e) => [e.id, e]));
    const accepted: Accepted[] = [];
    const unsent: number[] = [];
    try {
      const skipped = await forEachUntil(claimed, concurrency, signal, async (d) => {
        const endpoint = endpoints.get(d.endpoint_id);
        // Disabled by an earlier message of this claim (a permanent failure): not sent, given back.
        if (endpoint && !endpoint.enabled) return void unsent.push(d.id);
        const ok = endpoint && (await sendClaimed(deps, endpoint, d, d.attempts, now, signal));
        if (ok === 'cancelled') unsent.push(d.id);
        else if (ok) accepted.push(ok);
      });
      unsent.push(...skipped.map((d) => d.id));
    } finally {
      // Tried once more on failure: unrecorded, the claim's accepted webhooks go again after the lease.
      await repo.markSucceeded(deps.db, accepted).catch(() => repo.markSucceeded(deps.db, accepted));
      await repo.releaseDeliveries(deps.db, unsent, deps.clock.now());
    }
    if (claimed.length < asked) break;
  }
  return due;
}

/**
 * Sends the deliveries that are due: every minute on one worker of the cluster, and on every
 * worker each `CARETAKER_QUEUE_SEND_INTERVAL_MS` and after each fan-out batch (the drain), again at
 * once while a batch comes back full. Attempts claim their row, so workers never send one twice.
 */
export const deliverTask: PeriodicTask = {
  name: 'webhooks.deliver',
  cron: '* * * * *',
  async run(deps, _log, signal) {
    await deliverDue(deps, signal);
  },
  async drain(deps, signal) {
    return (await deliverDue(deps, signal)) === BATCH;
  },
};
