/**
 * Renders docs/events.md from the event catalogue (`npm run docs:events` writes it; a test checks
 * that the committed file is current). The prose around the table is kept here with the code it
 * describes.
 */
import type { TSchema } from 'typebox';
import { EVENT_CATALOGUE } from './catalogue.ts';

const INTRO = `# Domain events and background work

<!-- Generated from src/events/catalogue.ts by \`npm run docs:events\`; do not edit by hand. -->

Something that happens in a transaction (a job is reported, a note is added, a user is created)
is written as a **domain event** into the \`outbox\` table in that same transaction: a rolled-back
change emits nothing, a committed one is never lost. Side effects (e-mail, push, webhooks,
recomputation) follow from events, never inside the request.

## Delivery

- **Relay.** The background worker claims committed, unpublished outbox rows
  (\`FOR UPDATE SKIP LOCKED\`, so several instances never take the same row), inserts one pg-boss
  job per subscribed handler in the same transaction and marks the rows published.
- **Queue.** pg-boss 12 on the application's database (schema \`pgboss\`): on PostgreSQL with its
  own small pool and LISTEN/NOTIFY; on the embedded PGlite through an adapter that shares the one
  connection with the application, serialised. Each handler has its own queue
  \`handler.<handler name>\`; each periodic task \`task.<task name>\`.
- **At least once, effect once.** A failing handler is retried
  \`CARETAKER_QUEUE_RETRY_LIMIT\` times (default 5) with exponential backoff from
  \`CARETAKER_QUEUE_RETRY_DELAY_S\` (default 5 s, doubling); after the last try the job fails for
  good and a copy goes to the \`dead-letter\` queue. A handler records its completion per event id
  in \`event_handler_runs\` in the transaction of its own database effects (\`runHandlerOnce\`), so a
  redelivered event has its effect once.
- **Crashes.** A running job sends heartbeats; when its worker dies, the job is retried once
  \`CARETAKER_QUEUE_HEARTBEAT_S\` (default 30 s) passes without one. On SIGTERM a worker stops
  taking jobs and gives running ones \`CARETAKER_SHUTDOWN_TIMEOUT_S\` to finish.
- **Periodic tasks** run on pg-boss cron schedules (UTC, five fields): one job per tick for the
  whole cluster, whatever the number of instances.
- **Processes.** \`caretaker serve\` runs the HTTP API and the worker; \`caretaker serve --no-worker\`
  only the API; \`caretaker worker\` only the background work. On PGlite everything runs in the one
  process that owns the data folder, on its one connection: a handler's transaction holds it, so
  handlers keep slow outside calls (SMTP, HTTP) out of their transaction. In \`caretaker serve\` the
  worker starts once the server has answered its first request (or 2 s after it listens, if no
  request comes), so its first statements do not hold back that answer (docs/operations.md
  "Starting").
- **Writing a handler.** Implement \`EventHandler\` or \`PeriodicTask\` (src/events/handlers.ts),
  export it from the module's index.ts and list it in src/main/background.ts. Tests deliver events with
  \`dispatchPendingEvents(deps, backgroundHandlers())\` and call a task's \`run(deps)\` directly.

## Operating it

- \`GET /api/system/queue\` (SysOps, \`api.system.queue.view\`): jobs per queue and state, the age of
  the oldest waiting job, and the relay lag.
- \`GET /api/system/events?name=job.created&limit=50&offset=0\` (SysOps, \`api.system.events.view\`):
  recent outbox rows, newest first.
- Prometheus (\`GET /api/system/metrics\`): \`caretaker_queue_depth{queue}\`,
  \`caretaker_queue_failed{queue}\`, \`caretaker_queue_oldest_waiting_seconds{queue}\`,
  \`caretaker_outbox_unpublished\`, \`caretaker_event_lag_seconds\`.

\`\`\`
$ curl -s -H "Authorization: Bearer $SYSOPS" http://127.0.0.1:3000/api/system/queue
{"success":true,"data":{"queues":[{"name":"handler.messaging.email","counts":{"created":0,"retry":1,
"active":0,"completed":42,"cancelled":0,"failed":0},"oldest_waiting_s":null}],
"outbox":{"unpublished":0,"lag_s":0}},"message":"Queue figures retrieved"}
\`\`\`

## The catalogue

Every event carries an \`ID\` (uuid, the idempotency key), its \`name\` and \`version\`, the agency
(null for platform events), the UTC instant it occurred and this payload.
`;

/** A compact one-line type of a payload field. */
function typeOf(s: TSchema): string {
  const schema = s as Record<string, unknown>;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `${typeOf(schema.items as TSchema)}[]`;
  const fmt = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return `${String(schema.type)}${fmt}`;
}

/** The markdown of docs/events.md. */
export function renderEventsDoc(): string {
  const parts = [INTRO, '| event | version | description |', '|---|---|---|'];
  const names = Object.keys(EVENT_CATALOGUE) as Array<keyof typeof EVENT_CATALOGUE>;
  for (const name of names) {
    const def = EVENT_CATALOGUE[name];
    parts.push(`| [\`${name}\`](#${name.replace(/\./g, '')}) | ${def.version} | ${def.description} |`);
  }
  for (const name of names) {
    const def = EVENT_CATALOGUE[name];
    const props = (def.payload as unknown as { properties: Record<string, TSchema> }).properties;
    parts.push('', `### ${name}`, '', `${def.description} Version ${def.version}.`, '', '| field | type | description |', '|---|---|---|');
    for (const [field, schema] of Object.entries(props)) {
      const description = String((schema as Record<string, unknown>).description ?? '');
      parts.push(`| \`${field}\` | ${typeOf(schema)} | ${description} |`);
    }
  }
  return `${parts.join('\n')}\n`;
}
