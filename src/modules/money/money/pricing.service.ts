/**
 * Service pricing (docs/money.md "Price list"): the agency's price list with contractor-specific
 * rates, VAT rates, money settings (VAT number, payment terms, quote approval limits), contractors'
 * VAT registration and the estimate of a job from its trade and type.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { visibleJob } from '../../jobs/jobs/index.ts';
import { ownAgency, readAgency } from './access.ts';
import { computeLines, storedLinesToDto } from './lines.ts';
import * as lrepo from './lines.repository.ts';
import type {
  CreatePriceItemInput, ContractorVatInput, ListPriceItemsFilter, MoneySettingsDto, MoneySettingsInput, PriceItemDto, SelfBillingAgreementDto, SelfBillingAgreementInput, UpdatePriceItemInput, VatCode,
} from './money.schemas.ts';
import * as repo from './pricing.repository.ts';
import { jobFacts } from './quotes.repository.ts';
import { isoDate } from './vat.ts';

/** Wire shapes of items with their contractor rates. */
async function toItemDtos(deps: AppDeps, rows: repo.PriceItemRow[]): Promise<PriceItemDto[]> {
  const rates = await repo.ratesOfItems(deps.db, rows.map((r) => r.id));
  return rows.map((r) => ({
    uuid: r.uuid, code: r.code, name: r.name, trade_id: r.trade_id, trade: r.trade, job_type_id: r.job_type_id, job_type: r.job_type,
    unit: r.unit, unit_price_pence: r.unit_price_pence, vat_rate: r.vat_rate_code, active: r.active,
    contractor_rates: rates.filter((x) => x.price_item_id === r.id).map((x) => ({ contractor_uuid: x.contractor_uuid, contractor_name: x.contractor_name, unit_price_pence: x.unit_price_pence })),
    created_at: toIso(r.created_at), updated_at: toIso(r.updated_at),
  }));
}

/** GET /api/pricing/items: a page of the caller's agency's items (SysOps: every agency's). */
export async function listPriceItems(deps: AppDeps, auth: AuthContext, f: ListPriceItemsFilter) {
  const { rows, total } = await repo.listItems(deps.db, readAgency(auth), f);
  return { rows: await toItemDtos(deps, rows), total };
}

/** GET /api/pricing/items/{uuid}. @throws 404 'Price item not found' (unknown or another agency's) */
export async function getPriceItem(deps: AppDeps, auth: AuthContext, uuid: string): Promise<PriceItemDto> {
  const row = await repo.findItem(deps.db, readAgency(auth), uuid);
  if (!row) throw notFound('Price item');
  return (await toItemDtos(deps, [row]))[0]!;
}

/** 400 for a trade or job type the agency cannot use. */
async function checkRefs(deps: AppDeps, agencyId: number, input: { trade_id?: number | null; job_type_id?: number | null }) {
  if (input.trade_id != null && !(await repo.tradeVisible(deps.db, agencyId, input.trade_id))) throw invalidParam('trade_id');
  if (input.job_type_id != null && !(await repo.jobTypeExists(deps.db, input.job_type_id))) throw invalidParam('job_type_id');
}

/**
 * POST /api/pricing/items: adds an item to the caller's agency's list (VAT rate default standard).
 * @throws 400 bad trade or job type, 403 caller of no agency, 409 code already used
 */
export async function createPriceItem(deps: AppDeps, auth: AuthContext, actor: Actor, input: CreatePriceItemInput): Promise<PriceItemDto> {
  const agencyId = ownAgency(auth);
  await checkRefs(deps, agencyId, input);
  if (await repo.codeTaken(deps.db, agencyId, input.code)) throw conflict('A price item with this code already exists');
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertItem(trx, {
      uuid, agency_id: agencyId, code: input.code, name: input.name.trim(), trade_id: input.trade_id ?? null, job_type_id: input.job_type_id ?? null,
      unit: input.unit, unit_price_pence: input.unit_price_pence, vat_rate_code: input.vat_rate ?? 'standard', active: input.active ?? true, created_at: now, updated_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'price_item.create', resourceType: 'price_item', resourceId: id, agencyId, details: { code: input.code } });
  });
  return getPriceItem(deps, auth, uuid);
}

/**
 * PUT /api/pricing/items/{uuid}: changes fields of an item (code stays); active false retires it.
 * @throws 400 empty body or bad refs, 403, 404 'Price item not found'
 */
export async function updatePriceItem(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input: UpdatePriceItemInput): Promise<PriceItemDto> {
  const agencyId = ownAgency(auth);
  const row = await repo.findItem(deps.db, agencyId, uuid);
  if (!row) throw notFound('Price item');
  const { vat_rate, ...rest } = input;
  if (Object.keys(rest).length === 0 && vat_rate === undefined) throw invalidParam('body');
  await checkRefs(deps, agencyId, rest);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateItem(trx, row.id, { ...rest, ...(rest.name ? { name: rest.name.trim() } : {}), ...(vat_rate ? { vat_rate_code: vat_rate } : {}), updated_at: now });
    await recordActivity(trx, actor, now, { action: 'price_item.update', resourceType: 'price_item', resourceId: row.id, agencyId, details: { fields: Object.keys(input) } });
  });
  return getPriceItem(deps, auth, uuid);
}

/**
 * PUT (pence) or DELETE (null) /api/pricing/items/{uuid}/contractor-rates/{contractor_uuid}: the
 * contractor's own unit price for the item, which overrides the list price in estimates.
 * @throws 403, 404 'Price item not found' / 'Contractor not found' / 'Contractor rate not found'
 */
export async function setContractorRate(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, contractorUuid: string, pence: number | null): Promise<PriceItemDto> {
  const agencyId = ownAgency(auth);
  const item = await repo.findItem(deps.db, agencyId, uuid);
  if (!item) throw notFound('Price item');
  const contractor = await repo.findContractor(deps.db, agencyId, contractorUuid);
  if (!contractor) throw notFound('Contractor');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (pence === null) {
      if (!(await repo.deleteRate(trx, item.id, contractor.id))) throw notFound('Contractor rate');
    } else {
      await repo.upsertRate(trx, item.id, contractor.id, pence, now);
    }
    await recordActivity(trx, actor, now, {
      action: pence === null ? 'price_item.rate_remove' : 'price_item.rate_set', resourceType: 'price_item', resourceId: item.id, agencyId,
      details: { contractor_id: contractor.id, unit_price_pence: pence },
    });
  });
  return getPriceItem(deps, auth, uuid);
}

/** GET /api/pricing/vat-rates: every VAT rate with its effective dates. */
export function vatRates(deps: AppDeps) {
  return lrepo.listVatRates(deps.db);
}

/** GET /api/pricing/settings: VAT number, payment terms (days) and approval limits (pence). */
export function getSettings(deps: AppDeps, auth: AuthContext): Promise<MoneySettingsDto> {
  return repo.settings(deps.db, ownAgency(auth));
}

/**
 * PUT /api/pricing/settings: fields left out keep their values; approval_limits replaces all.
 * @throws 400 unknown or repeated job type, 403
 */
export async function saveSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: MoneySettingsInput): Promise<MoneySettingsDto> {
  const agencyId = ownAgency(auth);
  const current = await repo.settings(deps.db, agencyId);
  const limits = input.approval_limits;
  if (limits) {
    if (new Set(limits.map((l) => l.job_type_id)).size !== limits.length) throw invalidParam('approval_limits');
    for (const l of limits) if (!(await repo.jobTypeExists(deps.db, l.job_type_id))) throw invalidParam('approval_limits');
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveSettings(trx, agencyId, {
      vat_number: input.vat_number !== undefined ? input.vat_number : current.vat_number,
      payment_terms_days: input.payment_terms_days ?? current.payment_terms_days,
      vat_treatment: input.vat_treatment ?? current.vat_treatment,
    }, limits, now);
    await recordActivity(trx, actor, now, { action: 'money_settings.update', resourceType: 'agency', resourceId: agencyId, agencyId });
  });
  return repo.settings(deps.db, agencyId);
}

/**
 * GET/PUT /api/pricing/contractors/{uuid}/vat: a contractor's VAT registration (no VAT is charged
 * on the quotes and invoices of one not registered). A change of registration or number clears the
 * `vat_number_checked_on` of its self-billing agreement, so the agency checks it again before
 * self-billing (docs/money.md "Self-billing").
 * @throws 400 vat_number missing while registered, 403, 404 'Contractor not found'
 */
export async function contractorVat(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input?: ContractorVatInput) {
  const contractorSelf = auth.contractorId !== null;
  const agencyId = contractorSelf ? auth.agencyId : readAgency(auth);
  const contractor = await repo.findContractor(deps.db, agencyId, uuid);
  if (!contractor || (contractorSelf && contractor.id !== auth.contractorId)) throw notFound('Contractor');
  if (input) {
    ownAgency(auth);
    if (input.registered && !input.vat_number) throw invalidParam('vat_number');
    const now = deps.clock.now();
    await deps.db.transaction().execute(async (trx) => {
      const before = await lrepo.contractorVat(trx, contractor.id);
      const vatNumber = input.registered ? input.vat_number ?? null : null;
      await lrepo.upsertContractorVat(trx, contractor.id, input.registered, vatNumber, now);
      // A changed registration voids the check the self-billing agreement relies on (VAT Notice 700/62, 4.1): check it again before self-billing.
      const changed = before.registered !== input.registered || before.vat_number !== vatNumber;
      const uncheck = changed && (await repo.clearSelfBillingCheck(trx, contractor.id, now));
      await recordActivity(trx, actor, now, { action: 'contractor.vat_update', resourceType: 'contractor', resourceId: contractor.id, agencyId: contractor.agency_id, details: { registered: input.registered, ...(uncheck ? { self_billing_check_cleared: true } : {}) } });
    });
  }
  const vat = await lrepo.contractorVat(deps.db, contractor.id);
  return { contractor_uuid: contractor.uuid, registered: vat.registered, vat_number: vat.vat_number };
}

/**
 * The last day a self-billing agreement starting on `startsOn` may run to: the day before its first
 * anniversary (2026-01-01 -> 2026-12-31; 2028-02-29 -> 2029-02-28). HMRC VAT Notice 700/62
 * section 3 (self-billing agreements): an agreement runs for a set period, usually 12 months, and
 * is reviewed and renewed rather than left open (docs/money.md "Self-billing").
 */
export function selfBillingLastDay(startsOn: string): string {
  const [y, m, d] = startsOn.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + 1, m - 1, d - 1)).toISOString().slice(0, 10);
}

/**
 * Whether a self-billing agreement lets the agency self-bill an invoice dated `invoiceDate` (VAT
 * Regulations 1995 reg. 13(3A); HMRC VAT Notice 700/62 paragraph 1.1, section 3 with 3.1
 * "Contents of agreements", paragraph 4.1): within its start and expiry dates, of 12 months at
 * most, not past its review date, and with the contractor's VAT registration checked on or before
 * the invoice date.
 * @param invoiceDate the self-billed invoice's date (ISO, London): the issue date
 * @returns null when it does, else what is wrong (for the 400)
 */
export function selfBillingProblem(a: { starts_on: string; ends_on: string; review_on: string; vat_number_checked_on: string | null } | undefined, invoiceDate: string): string | null {
  if (!a) return 'a self-billing agreement with the contractor (PUT /api/pricing/contractors/{uuid}/self-billing)';
  if (invoiceDate > a.ends_on) return `a self-billing agreement in force on ${invoiceDate} (the agreement expired on ${a.ends_on}: record a new one)`;
  if (invoiceDate < a.starts_on) return `a self-billing agreement in force on ${invoiceDate} (the agreement starts on ${a.starts_on})`;
  if (a.ends_on > selfBillingLastDay(a.starts_on)) return `a self-billing agreement of 12 months at most (this one runs ${a.starts_on} to ${a.ends_on}: record it again ending by ${selfBillingLastDay(a.starts_on)})`;
  if (invoiceDate > a.review_on) return `the review of the self-billing agreement due ${a.review_on}`;
  if (a.vat_number_checked_on === null) return "a check of the contractor's VAT registration (vat_number_checked_on)";
  if (a.vat_number_checked_on > invoiceDate) return `a check of the contractor's VAT registration on or before the invoice date ${invoiceDate} (it was checked on ${a.vat_number_checked_on})`;
  return null;
}

/**
 * GET and PUT /api/pricing/contractors/{uuid}/self-billing: the agency's self-billing agreement
 * with a contractor (HMRC VAT Notice 700/62 paragraph 3.1 "Contents of agreements": start and
 * expiry dates; section 3: the agreement's review; paragraph 4.1: the supplier's VAT registration
 * number kept and checked). Without `input` it reads.
 * @returns the agreement, with `in_force_today`
 * @throws 400 ends_on before starts_on or more than 12 months after it (selfBillingLastDay), review_on
 *   outside them, vat_number_checked_on in the future;
 *   403 (SysOps without an agency, contractors); 404 contractor or (read) no agreement
 */
export async function selfBilling(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, input?: SelfBillingAgreementInput): Promise<SelfBillingAgreementDto> {
  const agencyId = readAgency(auth);
  const contractor = await repo.findContractor(deps.db, agencyId, uuid);
  if (!contractor) throw notFound('Contractor');
  const now = deps.clock.now();
  const today = isoDate(now);
  if (input) {
    ownAgency(auth);
    if (input.ends_on < input.starts_on) throw invalidParam('ends_on');
    const lastDay = selfBillingLastDay(input.starts_on);
    if (input.ends_on > lastDay) {
      throw new AppError('invalid_parameter', `ends_on: a self-billing agreement runs 12 months at most (HMRC VAT Notice 700/62 section 3); one starting ${input.starts_on} ends by ${lastDay}: review it and record a new one after that`);
    }
    if (input.review_on < input.starts_on || input.review_on > input.ends_on) throw invalidParam('review_on');
    if (input.vat_number_checked_on && input.vat_number_checked_on > today) throw invalidParam('vat_number_checked_on');
    await deps.db.transaction().execute(async (trx) => {
      await repo.saveSelfBillingAgreement(trx, {
        uuid: newUuid(), agency_id: contractor.agency_id, contractor_id: contractor.id, starts_on: input.starts_on, ends_on: input.ends_on, review_on: input.review_on,
        vat_number_checked_on: input.vat_number_checked_on ?? null,
      }, now);
      await recordActivity(trx, actor, now, { action: 'contractor.self_billing', resourceType: 'contractor', resourceId: contractor.id, agencyId: contractor.agency_id, details: { ...input } });
    });
  }
  const a = await repo.selfBillingAgreement(deps.db, contractor.id);
  if (!a) throw notFound('Self-billing agreement');
  return {
    contractor_uuid: contractor.uuid, starts_on: a.starts_on, ends_on: a.ends_on, review_on: a.review_on, vat_number_checked_on: a.vat_number_checked_on,
    in_force_today: selfBillingProblem(a, today) === null, updated_at: toIso(a.updated_at),
  };
}

/**
 * GET /api/pricing/estimate?job_uuid=: suggests lines (quantity 1 of each active item matching the
 * job's trade and type, most specific first) priced at the contractor's rates where it has them.
 * @throws 404 'Job not found' / 'Contractor not found'
 */
export async function estimate(deps: AppDeps, auth: AuthContext, jobUuid: string, contractorUuid?: string) {
  const job = await visibleJob(deps.db, auth, jobUuid);
  const jobRow = await jobFacts(deps.db, job.id);
  let contractorId = jobRow.contractor_id;
  let contractorUuidOut = job.contractor_uuid;
  if (contractorUuid) {
    const c = await repo.findContractor(deps.db, jobRow.agency_id, contractorUuid);
    if (!c) throw notFound('Contractor');
    contractorId = c.id;
    contractorUuidOut = c.uuid;
  }
  const items = await repo.itemsForJob(deps.db, jobRow.agency_id, jobRow.trade_id, jobRow.job_type_id);
  const rates = contractorId === null ? [] : (await repo.ratesOfItems(deps.db, items.map((i) => i.id))).filter((r) => r.contractor_id === contractorId);
  const registered = contractorId === null ? true : (await lrepo.contractorVat(deps.db, contractorId)).registered;
  const input = items.map((i) => ({
    description: i.name, quantity: 1, vat_rate: i.vat_rate_code as VatCode, price_item_uuid: i.uuid,
    unit_price_pence: rates.find((r) => r.price_item_id === i.id)?.unit_price_pence ?? i.unit_price_pence,
  }));
  const { lines, totals } = await computeLines(deps.db, jobRow.agency_id, isoDate(deps.clock.now()), registered, input);
  return { job_uuid: job.uuid, contractor_uuid: contractorUuidOut, vat_registered: registered, lines: storedLinesToDto(lines, items.map((i) => i.uuid)), ...totals };
}
