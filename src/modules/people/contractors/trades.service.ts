/**
 * The managed list of trades (docs/contractors.md): the platform's (seeded: plumbing, electrical,
 * gas, ...; managed by SysOps) and each agency's own (managed by its admins). A retired trade
 * stays on existing links and jobs but cannot be given to a contractor again.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { isSysOps, type Actor, type AuthContext } from '../../../core/auth-context.ts';
import { conflict, forbidden, invalidParam, notFound } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { REQUIRED_CERTIFICATES } from './certification-types.ts';
import type { TradeDto } from './contractors.schemas.ts';
import * as repo from './trades.repository.ts';

/** Wire shape of a trade. */
export function toTradeDto(t: repo.TradeRow): TradeDto {
  return {
    ID: t.id,
    code: t.code,
    name: t.name,
    scope: t.agency_id === null ? 'platform' : 'agency',
    retired_at: t.retired_at === null ? null : new Date(t.retired_at).toISOString(),
    required_certificates: [...(REQUIRED_CERTIFICATES[t.code] ?? [])],
  };
}

/** GET /api/contractors/trades: trades visible to the caller, by name. */
export async function listTrades(deps: AppDeps, auth: AuthContext, includeRetired: boolean): Promise<TradeDto[]> {
  return (await repo.listTrades(deps.db, auth.agencyId, includeRetired)).map(toTradeDto);
}

/** snake_case code from a name: "Pest control" -> "pest_control". */
export function tradeCode(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60);
}

/**
 * Checks that trade ids exist, are visible to the agency and are not retired.
 * @throws 400 'Invalid or missing required parameter: trade_ids'
 */
export async function checkTradeIds(db: DbOrTrx, agencyId: number, ids: number[]): Promise<void> {
  const visible = new Map((await repo.listTrades(db, agencyId, false)).map((t) => [t.id, t]));
  if (ids.some((id) => !visible.has(id))) throw invalidParam('trade_ids');
}

/**
 * POST /api/contractors/trades: an admin creates an agency trade; SysOps a platform trade.
 * @throws 400 code, 409 code or name in use
 */
export async function createTrade(deps: AppDeps, auth: AuthContext, actor: Actor, input: { name: string; code?: string }): Promise<TradeDto> {
  const agencyId = isSysOps(auth) ? null : auth.agencyId;
  if (agencyId === null && !isSysOps(auth)) throw forbidden();
  const name = input.name.trim();
  if (!name) throw invalidParam('name');
  const code = input.code ?? tradeCode(name);
  if (!/^[a-z][a-z0-9_]{1,59}$/.test(code)) throw invalidParam('code');
  if (await repo.findClash(deps.db, agencyId, name, code)) throw conflict('A trade with this code or name already exists');
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertTrade(trx, { code, name, agency_id: agencyId });
    await recordActivity(trx, actor, now, { action: 'trade.create', resourceType: 'trade', resourceId: id, agencyId });
    return id;
  });
  return toTradeDto((await repo.findTrade(deps.db, id))!);
}

/**
 * PUT /api/contractors/trades/{id}: renames, retires or restores a trade.
 * @throws 400 name (blank, or an empty body with nothing to change), 404 trade not visible, 403 a
 *   platform trade for a non-SysOps caller, 409 name in use
 */
export async function updateTrade(deps: AppDeps, auth: AuthContext, actor: Actor, id: number, input: { name?: string; retired?: boolean }): Promise<TradeDto> {
  const trade = await repo.findTrade(deps.db, id);
  if (!trade || (trade.agency_id !== null && trade.agency_id !== auth.agencyId && !isSysOps(auth))) throw notFound('Trade');
  if (trade.agency_id === null && !isSysOps(auth)) throw forbidden('Platform trades are managed by SysOps');
  const name = input.name?.trim();
  if (input.name !== undefined && !name) throw invalidParam('name');
  // Nothing to change (an empty body) is a 400, not an UPDATE without a SET list.
  if (input.name === undefined && input.retired === undefined) throw invalidParam('name');
  if (name && (await repo.findClash(deps.db, trade.agency_id, name, undefined, trade.id))) throw conflict('A trade with this code or name already exists');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateTrade(trx, id, {
      ...(name ? { name } : {}),
      ...(input.retired !== undefined ? { retired_at: input.retired ? (trade.retired_at ?? now) : null } : {}),
    });
    const verb = input.retired === true ? 'retire' : input.retired === false && trade.retired_at !== null ? 'restore' : 'update';
    await recordActivity(trx, actor, now, { action: `trade.${verb}`, resourceType: 'trade', resourceId: id, agencyId: trade.agency_id });
  });
  return toTradeDto((await repo.findTrade(deps.db, id))!);
}
