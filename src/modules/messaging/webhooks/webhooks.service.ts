/**
 * Outbound webhook endpoints and deliveries of the caller's agency (docs/webhooks.md): CRUD with
 * the secret shown once, rotation with an overlap, test ping, delivery log and retry. Every write
 * runs in a transaction with its activity entry. Another agency's record answers as a missing one.
 */
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../../app-deps.ts';
import { EVENT_CATALOGUE } from '../../../events/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, ERROR_TABLE, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import * as repo from './webhooks.repository.ts';
import { queueDelivery } from './webhooks.delivery.ts';
import type { CreateEndpointInput, DeliveryDto, EndpointDto, ListDeliveriesFilter, UpdateEndpointInput } from './webhooks.schemas.ts';
import { targetProblem } from './webhooks.target.ts';

/** The caller's agency. @throws 403 for a caller without one (SysOps). */
function agencyOf(auth: AuthContext): number {
  if (auth.agencyId === null) throw forbidden('Webhook endpoints belong to an agency');
  return auth.agencyId;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function toEndpointDto(row: repo.EndpointRow): EndpointDto {
  return {
    uuid: row.uuid,
    url: row.url,
    description: row.description,
    events: (typeof row.events === 'string' ? JSON.parse(row.events) : row.events) as string[],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: toIsoOrNull(row.previous_secret_expires_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export function toDeliveryDto(row: repo.DeliveryRow): DeliveryDto {
  return {
    uuid: row.uuid,
    endpoint_uuid: row.endpoint_uuid,
    event: row.event_name,
    message_id: row.message_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: toIsoOrNull(row.next_attempt_at),
    last_attempt_at: toIsoOrNull(row.last_attempt_at),
    last_response_code: row.last_response_code,
    last_duration_ms: row.last_duration_ms,
    last_error: row.last_error,
    created_at: toIso(row.created_at),
  };
}

/**
 * @throws 400 `Invalid or missing required parameter: url (<why>)` for a refused target (why: see
 *   targetProblem), 400 events for an unknown event name
 */
async function validate(deps: AppDeps, input: { url?: string | undefined; events?: string[] | undefined }): Promise<void> {
  if (input.events && !input.events.every((e) => e === '*' || e in EVENT_CATALOGUE)) throw invalidParam('events');
  const problem = input.url === undefined ? undefined : await targetProblem(input.url, deps.config.webhooks);
  if (problem) throw new AppError('bad_request', `${ERROR_TABLE.invalid_parameter.message('url')} (${problem})`);
}

/** GET /api/webhooks/endpoints: one page of the agency's endpoints. */
export async function listEndpoints(deps: AppDeps, auth: AuthContext, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listEndpoints(deps.db, agencyOf(auth), page);
  return { rows: rows.map(toEndpointDto), total };
}

/** GET /api/webhooks/endpoints/{uuid}. @throws 404 "Webhook endpoint not found" */
export async function getEndpoint(deps: AppDeps, auth: AuthContext, uuid: string): Promise<EndpointDto> {
  const row = await repo.findEndpoint(deps.db, agencyOf(auth), uuid);
  if (!row) throw notFound('Webhook endpoint');
  return toEndpointDto(row);
}

/**
 * POST /api/webhooks/endpoints: creates an endpoint with a new signing secret.
 * @returns the endpoint with `secret` (the only time it is shown)
 * @throws 400 url (refused target) or events (unknown name)
 */
export async function createEndpoint(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreateEndpointInput) {
  const agencyId = agencyOf(auth);
  await validate(deps, input);
  const now = deps.clock.now();
  const secret = newSecret();
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertEndpoint(trx, {
      uuid: newUuid(), agency_id: agencyId, url: input.url, description: input.description ?? '', events: JSON.stringify(input.events),
      secret, created_by_user_id: auth.userId, created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'webhook_endpoint.create', resourceType: 'webhook_endpoint', resourceId: row.id });
    return { ...toEndpointDto(row), secret };
  });
}

/** PUT /api/webhooks/endpoints/{uuid}: changes url, events, description or enabled. @throws 404, 400 */
export async function updateEndpoint(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdateEndpointInput) {
  const agencyId = agencyOf(auth);
  const existing = await repo.findEndpoint(deps.db, agencyId, uuid);
  if (!existing) throw notFound('Webhook endpoint');
  await validate(deps, input);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.updateEndpoint(trx, existing.id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled, disabled_reason: input.enabled ? null : 'Disabled by an administrator' } : {}),
      updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'webhook_endpoint.update', resourceType: 'webhook_endpoint', resourceId: row.id });
    return toEndpointDto(row);
  });
}

/** DELETE /api/webhooks/endpoints/{uuid}: removes the endpoint and its deliveries. @throws 404 */
export async function deleteEndpoint(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<void> {
  const existing = await repo.findEndpoint(deps.db, agencyOf(auth), uuid);
  if (!existing) throw notFound('Webhook endpoint');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteEndpoint(trx, existing.id);
    await recordActivity(trx, actor, now, { action: 'webhook_endpoint.delete', resourceType: 'webhook_endpoint', resourceId: existing.id });
  });
}

/**
 * POST /api/webhooks/endpoints/{uuid}/rotate-secret: a new secret signs from now; the old one also
 * signs (a second signature) for `overlapSeconds`.
 * @returns the endpoint with the new `secret` (shown once). @throws 404
 */
export async function rotateSecret(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, overlapSeconds: number) {
  const existing = await repo.findEndpoint(deps.db, agencyOf(auth), uuid);
  if (!existing) throw notFound('Webhook endpoint');
  const now = deps.clock.now();
  const secret = newSecret();
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.updateEndpoint(trx, existing.id, {
      secret,
      previous_secret: overlapSeconds > 0 ? existing.secret : null,
      previous_secret_expires_at: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
      updated_at: now,
    });
    await recordActivity(trx, actor, now, {
      action: 'webhook_endpoint.rotate_secret', resourceType: 'webhook_endpoint', resourceId: row.id, details: { overlap_seconds: overlapSeconds },
    });
    return { ...toEndpointDto(row), secret };
  });
}

/** POST /api/webhooks/endpoints/{uuid}/test: queues a `webhook.test` ping. @throws 404, 409 disabled */
export async function pingEndpoint(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<DeliveryDto> {
  const agencyId = agencyOf(auth);
  const endpoint = await repo.findEndpoint(deps.db, agencyId, uuid);
  if (!endpoint) throw notFound('Webhook endpoint');
  if (!endpoint.enabled) throw conflict('Webhook endpoint is disabled');
  const now = deps.clock.now();
  const queued = await deps.db.transaction().execute(async (trx) => {
    const delivery = await queueDelivery(trx, endpoint, { messageId: `msg_test_${newUuid()}`, type: 'webhook.test', occurredAt: now, data: { endpoint_uuid: endpoint.uuid } }, now);
    await recordActivity(trx, actor, now, { action: 'webhook_endpoint.test', resourceType: 'webhook_endpoint', resourceId: endpoint.id });
    return delivery!;
  });
  return toDeliveryDto((await repo.findDelivery(deps.db, agencyId, queued.uuid))!);
}

/** GET /api/webhooks/deliveries: one page of the agency's delivery log, newest first. */
export async function listDeliveries(deps: AppDeps, auth: AuthContext, f: ListDeliveriesFilter) {
  const { rows, total } = await repo.listDeliveries(deps.db, agencyOf(auth), { endpointUuid: f.endpoint_uuid, status: f.status, limit: f.limit, offset: f.offset });
  return { rows: rows.map(toDeliveryDto), total };
}

/**
 * POST /api/webhooks/deliveries/{uuid}/retry: makes a delivery due now (pending), whatever its
 * state; the retry window restarts from now.
 * @throws 404 "Webhook delivery not found"; 409 when its endpoint is disabled
 */
export async function retryDelivery(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<DeliveryDto> {
  const agencyId = agencyOf(auth);
  const row = await repo.findDelivery(deps.db, agencyId, uuid);
  if (!row) throw notFound('Webhook delivery');
  const endpoint = await repo.endpointById(deps.db, row.endpoint_id);
  if (!endpoint?.enabled) throw conflict('Webhook endpoint is disabled');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateDelivery(trx, row.id, { status: 'pending', next_attempt_at: now, created_at: now });
    await recordActivity(trx, actor, now, { action: 'webhook_delivery.retry', resourceType: 'webhook_delivery', resourceId: row.id });
  });
  return toDeliveryDto((await repo.findDelivery(deps.db, agencyId, uuid))!);
}
