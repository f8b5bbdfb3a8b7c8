/** The delivery log of an agency (docs/messaging.md "Delivery log"). */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { toIso } from '../../../lib/clock.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import * as repo from './deliveries.repository.ts';
import type { DeliveryDto, ListDeliveriesQuery } from './messaging.schemas.ts';

const isoOrNull = (d: Date | string | null) => (d === null ? null : toIso(d));

function toDto(r: repo.DeliveryRow): DeliveryDto {
  return {
    uuid: r.uuid,
    event_id: r.event_id,
    event: r.event_name,
    template: r.template_key,
    channel: r.channel,
    recipient: { kind: r.recipient_kind, user_uuid: r.user_uuid, name: r.user_name, address: r.recipient_address },
    status: r.status,
    reason: r.reason,
    attempts: r.attempts,
    last_error: r.last_error,
    subject: r.subject,
    next_attempt_at: isoOrNull(r.next_attempt_at),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    sent_at: isoOrNull(r.sent_at),
  };
}

/**
 * GET /api/messaging/deliveries: one page of the agency's deliveries, newest first.
 * @param q filters (status, channel, event, template, recipient address, from_date/to_date as
 *   inclusive UTC dates) and limit/offset
 * @throws 400 to_date before from_date; 403 for a caller of no agency
 */
export async function listDeliveries(deps: AppDeps, auth: AuthContext, q: ListDeliveriesQuery) {
  const agencyId = writeAgency(auth);
  const from = q.from_date ? new Date(`${q.from_date}T00:00:00Z`) : undefined;
  const to = q.to_date ? new Date(new Date(`${q.to_date}T00:00:00Z`).getTime() + 86_400_000) : undefined;
  if (from && to && to <= from) throw invalidParam('to_date');
  const { rows, total } = await repo.listDeliveries(deps.db, {
    agencyId, status: q.status, channel: q.channel, event: q.event, template: q.template, recipient: q.recipient, from, to, limit: q.limit, offset: q.offset,
  });
  return { rows: rows.map(toDto), total };
}
