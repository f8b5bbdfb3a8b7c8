/**
 * Demo data of outbound webhooks (docs/webhooks.md): Northwind's n8n endpoint subscribed to new
 * jobs and status changes, with a delivery log of one success, one success after retries and one
 * message that gave up. Uses ctx.uuid only (not ctx.rng), so later steps are not shifted.
 */
import type { DemoContext } from './context.ts';
import { insertId, insertRows } from '../../db/seed.repository.ts';

const HOUR_MS = 3_600_000;

/** Writes the webhook demo rows. */
export async function webhooksStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  const agencyId = ids.agencies.northwind;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  const endpointId = await insertId(trx, 'webhook_endpoints', {
    uuid: ctx.uuid(),
    agency_id: agencyId,
    url: 'https://n8n.northwind.example/webhook/caretaker-jobs',
    description: 'n8n: new jobs and status changes to the CRM',
    events: JSON.stringify(['job.created', 'job.status_changed']),
    secret: `whsec_${Buffer.from(`${ctx.uuid()}${ctx.uuid()}`.replace(/-/g, ''), 'hex').toString('base64')}`,
    created_by_user_id: ids.users['admin@northwind.test'] ?? null,
    created_at: at(24 * 20),
    updated_at: at(24 * 20),
  });
  const rows = [
    { event: 'job.created', status: 'succeeded' as const, attempts: 1, hoursAgo: 50, code: 200, ms: 84, error: null },
    { event: 'job.status_changed', status: 'succeeded' as const, attempts: 3, hoursAgo: 30, code: 200, ms: 131, error: null },
    { event: 'job.created', status: 'failed' as const, attempts: 8, hoursAgo: 24 * 9, code: 502, ms: 2_004, error: 'HTTP 502' },
  ];
  for (const r of rows) {
    const eventId = ctx.uuid();
    await insertRows(trx, 'webhook_deliveries', [{
      uuid: ctx.uuid(),
      agency_id: agencyId,
      endpoint_id: endpointId,
      message_id: `msg_${eventId}`,
      event_name: r.event,
      payload: JSON.stringify({ type: r.event, timestamp: at(r.hoursAgo).toISOString(), data: { demo: true } }),
      status: r.status,
      attempts: r.attempts,
      next_attempt_at: null,
      last_attempt_at: at(r.status === 'failed' ? r.hoursAgo - 72 : r.hoursAgo - 0.1),
      last_response_code: r.code,
      last_duration_ms: r.ms,
      last_error: r.error,
      created_at: at(r.hoursAgo),
    }]);
  }
  ctx.log('demo: webhook endpoint and deliveries');
}
