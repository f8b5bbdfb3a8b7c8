/**
 * Landlord recharges and statements (docs/money.md "Recharges", "Statements"; Arthur Online and
 * Buildium owner statements). When a contractor invoice is issued (the agency accepts the cost:
 * event `invoice.issued`), the cost is recharged to the landlords of the job's property by
 * ownership share, with the agency's fee: a percent of the net cost or a fixed sum per invoice
 * (split by share), VAT at the standard rate on the fee when the agency has a VAT number. The
 * contractor's cost follows the agency's VAT treatment (docs/money.md "VAT treatment of recharged
 * costs"): a disbursement passes on its net and VAT as paid; a recharge is the agency's own supply,
 * the net per rate with the agency's output VAT. A credit note (`credit_note.issued`) makes negative recharges for the
 * same landlords and shares (a percent fee is credited with it; a fixed fee is not); a voided
 * invoice (`invoice.voided`) cancels its recharges. A statement lists a landlord's active
 * recharges of a period per property with totals that are the sums of its lines, the balance
 * brought and carried forward with the payments recorded, and the agency's VAT invoices per rate.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import { invalidParam, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { daysBetween, londonDate } from '../../../lib/london-time.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { visibleJob } from '../../jobs/jobs/index.ts';
import { getLandlordRow, ownersOfAddress, vatParticularsOf } from '../landlords/index.ts';
import { divRoundHalfUp, invoiceNumber, moneySettings, vatRatesOn } from '../money/index.ts';
import * as repo from './recharges.repository.ts';
import type { LedgerEntryDto, LedgerEntryInput, ListRechargesFilter, RechargeDto, RechargeSettingsDto, RechargeSettingsInput, StatementDto, StatementFilter, StatementLineDto, StatementTotals } from './recharges.schemas.ts';

/** RCH-000001 (recharge) or RCC-000001 (recharge credit). */
export function rechargeNumber(kind: string, n: number): string {
  return `${kind === 'credit' ? 'RCC' : 'RCH'}-${String(n).padStart(6, '0')}`;
}

/** Signed amount x basis points / 10000, rounded half up on the magnitude. */
function part(amount: number, bp: number): number {
  const v = divRoundHalfUp(Math.abs(amount) * bp, 10_000);
  return amount < 0 && v !== 0 ? -v : v;
}

/**
 * Splits a signed amount (pence) by ownership shares (basis points). When the shares make
 * 100 %, the parts add up to the amount exactly (the pennies of rounding go to the largest
 * remainders, the earlier share on a tie); otherwise each part is rounded half up.
 * @returns one part per share, in the order given
 */
export function splitByShares(amount: number, shares: readonly number[]): number[] {
  const total = shares.reduce((s, x) => s + x, 0);
  if (total !== 10_000) return shares.map((s) => part(amount, s));
  const abs = Math.abs(amount);
  const exact = shares.map((s) => abs * s);
  const parts = exact.map((e) => Math.floor(e / 10_000));
  let left = abs - parts.reduce((s, x) => s + x, 0);
  const order = exact.map((e, i) => ({ i, r: e % 10_000 })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const o of order) {
    if (left <= 0) break;
    parts[o.i]! += 1;
    left -= 1;
  }
  return parts.map((p) => (amount < 0 && p !== 0 ? -p : p));
}

/** The amounts of one landlord's recharge (pence, signed like the cost). */
export interface RechargeAmounts {
  cost_net_pence: number;
  cost_vat_pence: number;
  fee_net_pence: number;
  fee_vat_pence: number;
  total_pence: number;
}

/**
 * The recharges of one contractor invoice (or, negative, credit note) for its landlords.
 * @param cost the invoice's net and VAT (pence; negative for a credit)
 * @param shares the landlords' shares (basis points)
 * @param fee the agency's fee settings; `credit` true: a fixed fee is not credited
 * @param feeVatBp VAT rate on the fee (basis points)
 */
export function rechargeAmounts(cost: { net: number; vat: number }, shares: readonly number[], fee: RechargeSettingsDto, feeVatBp: number, credit: boolean): RechargeAmounts[] {
  const nets = splitByShares(cost.net, shares);
  const vats = splitByShares(cost.vat, shares);
  const fixed = fee.fee_mode === 'fixed' && !credit ? splitByShares(fee.fee_fixed_pence, shares) : shares.map(() => 0);
  return shares.map((_, i) => {
    const net = nets[i]!;
    const feeNet = fee.fee_mode === 'percent' ? part(net, fee.fee_percent_bp) : fixed[i]!;
    const feeVat = part(feeNet, feeVatBp);
    return { cost_net_pence: net, cost_vat_pence: vats[i]!, fee_net_pence: feeNet, fee_vat_pence: feeVat, total_pence: net + vats[i]! + feeNet + feeVat };
  });
}

/** One VAT rate of a recharge's onward supply (recharge treatment), pence signed. */
export interface CostLine {
  /** the contractor line's VAT code (standard, reduced, zero, exempt), or `none` when the agency has no VAT number */
  vat_rate: string;
  vat_rate_bp: number;
  net_pence: number;
  vat_pence: number;
}

/**
 * The recharges of one contractor invoice or credit note under the **recharge** treatment
 * (docs/money.md "VAT treatment of recharged costs"): the agency makes its own supply of the work
 * to each landlord (VATA 1994 s. 47(3): an agent acting in its own name receives and makes the
 * supply), so each landlord's share of the net at each VAT code carries the agency's output VAT at
 * that code's rate, rounded half up per line (VAT Notice 700, 17.5); none when the agency has no
 * VAT number. The fee is as in rechargeAmounts, on the landlord's net.
 * @param byCode the invoice's net per VAT code (pence, negative for a credit) with the code's rate on the recharge date
 * @param agencyRegistered false: no output VAT (the agency is not registered)
 */
export function rechargeAmountsByRate(
  byCode: readonly { code: string; net: number; rateBp: number }[], shares: readonly number[], fee: RechargeSettingsDto, feeVatBp: number, credit: boolean, agencyRegistered: boolean,
): (RechargeAmounts & { cost_lines: CostLine[] })[] {
  const perCode = byCode.map((c) => ({ ...c, parts: splitByShares(c.net, shares) }));
  const fixed = fee.fee_mode === 'fixed' && !credit ? splitByShares(fee.fee_fixed_pence, shares) : shares.map(() => 0);
  return shares.map((_, i) => {
    const lines: CostLine[] = perCode.map((c) => {
      const net = c.parts[i]!;
      return { vat_rate: agencyRegistered ? c.code : 'none', vat_rate_bp: agencyRegistered ? c.rateBp : 0, net_pence: net, vat_pence: agencyRegistered ? part(net, c.rateBp) : 0 };
    });
    const net = lines.reduce((s, l) => s + l.net_pence, 0);
    const vat = lines.reduce((s, l) => s + l.vat_pence, 0);
    const feeNet = fee.fee_mode === 'percent' ? part(net, fee.fee_percent_bp) : fixed[i]!;
    const feeVat = part(feeNet, feeVatBp);
    return { cost_net_pence: net, cost_vat_pence: vat, fee_net_pence: feeNet, fee_vat_pence: feeVat, total_pence: net + vat + feeNet + feeVat, cost_lines: lines };
  });
}

/**
 * Makes the recharges of an issued contractor invoice or credit note, in the handler's
 * transaction. Nothing when the job has no property, the property no landlord (a credit note:
 * the invoice made no recharge), or the recharges exist already (the handler ran before).
 * @param uuid makes the recharges' uuids (the demo data passes its deterministic one)
 * @returns how many recharges it made
 */
export async function makeRecharges(trx: DbOrTrx, invoiceId: number, now: Date, uuid: () => string = newUuid): Promise<number> {
  const inv = await repo.invoiceForRecharge(trx, invoiceId);
  if (!inv || inv.status === 'void' || inv.status === 'draft' || inv.issue_date === null || inv.address_id === null) return 0;
  if (await repo.hasRecharges(trx, inv.id)) return 0;
  const credit = inv.kind === 'credit_note';
  const owners = credit
    ? await repo.rechargesOfInvoice(trx, inv.credited_invoice_id ?? -1)
    : (await ownersOfAddress(trx, inv.address_id)).map((o) => ({ landlord_id: o.id, address_id: inv.address_id!, share_bp: o.share_bp })).sort((a, b) => a.landlord_id - b.landlord_id);
  if (owners.length === 0) return 0;
  const fee = await settingsFor(trx, inv.agency_id);
  const vatNumber = (await moneySettings(trx, inv.agency_id)).vat_number;
  const feeVatBp = vatNumber ? ((await vatRatesOn(trx, inv.issue_date)).get('standard') ?? 0) : 0;
  const sign = credit ? -1 : 1;
  const shares = owners.map((o) => o.share_bp);
  const treatment = inv.vat_treatment === 'disbursement' ? 'disbursement' : 'recharge';
  let amounts: (RechargeAmounts & { cost_lines?: CostLine[] })[];
  if (treatment === 'disbursement') {
    // The contractor's invoice is the landlord's: its net and VAT are passed on as paid, outside the scope of VAT (VAT Notice 700, 25.1).
    amounts = rechargeAmounts({ net: sign * inv.net_pence, vat: sign * inv.vat_pence }, shares, fee, feeVatBp, credit);
  } else {
    const rates = await vatRatesOn(trx, inv.issue_date);
    const byCode = (await repo.netByRateCode(trx, inv.id)).map((c) => ({ code: c.vat_rate_code, net: sign * c.net_pence, rateBp: rates.get(c.vat_rate_code) ?? 0 }));
    amounts = rechargeAmountsByRate(byCode, shares, fee, feeVatBp, credit, vatNumber !== null);
  }
  const rows = [];
  for (const [i, o] of owners.entries()) {
    const { cost_lines: costLines, ...a } = amounts[i]!;
    rows.push({
      uuid: uuid(), agency_id: inv.agency_id, number: await repo.nextRechargeNumber(trx, inv.agency_id), landlord_id: o.landlord_id, address_id: o.address_id,
      job_id: inv.job_id, invoice_id: inv.id, kind: credit ? 'credit' : 'recharge', share_bp: o.share_bp, recharge_date: inv.issue_date, ...a,
      fee_vat_rate_bp: feeVatBp, vat_treatment: treatment, cost_lines: costLines ? JSON.stringify(costLines) : null, created_at: now, cancelled_at: null,
    });
  }
  await repo.insertRecharges(trx, rows);
  await recordActivity(trx, { auth: null, ip: 'system' }, now, {
    action: 'recharge.create', resourceType: 'invoice', resourceId: inv.id, agencyId: inv.agency_id, userName: 'system',
    details: { recharges: rows.length, total_pence: rows.reduce((s, r) => s + r.total_pence, 0) },
  });
  return rows.length;
}

/** Cancels the recharges of a voided contractor invoice (handler transaction). @returns how many */
export async function cancelRechargesOf(trx: DbOrTrx, invoiceId: number, agencyId: number, now: Date): Promise<number> {
  const n = await repo.cancelRecharges(trx, invoiceId, now);
  if (n > 0) await recordActivity(trx, { auth: null, ip: 'system' }, now, { action: 'recharge.cancel', resourceType: 'invoice', resourceId: invoiceId, agencyId, userName: 'system', details: { recharges: n } });
  return n;
}

/** The agency's recharge fee settings (defaults: no fee). */
export async function settingsFor(db: DbOrTrx, agencyId: number): Promise<RechargeSettingsDto> {
  const s = await repo.settingsOf(db, agencyId);
  return { fee_mode: s.fee_mode as RechargeSettingsDto['fee_mode'], fee_percent_bp: s.fee_percent_bp, fee_fixed_pence: s.fee_fixed_pence };
}

/** GET /api/recharges/settings: the caller's agency's fee. @throws 403 without an agency (SysOps) */
export async function getSettings(deps: AppDeps, auth: AuthContext): Promise<RechargeSettingsDto> {
  return settingsFor(deps.db, writeAgency(auth));
}

/**
 * PUT /api/recharges/settings: sets the fee; applies to recharges made from then on.
 * @throws 400 fee_percent_bp (percent mode without a percent) or fee_fixed_pence (fixed mode without an amount), 403
 */
export async function updateSettings(deps: AppDeps, auth: AuthContext, actor: Actor, input: RechargeSettingsInput): Promise<RechargeSettingsDto> {
  const agencyId = writeAgency(auth);
  if (input.fee_mode === 'percent' && input.fee_percent_bp === 0) throw invalidParam('fee_percent_bp');
  if (input.fee_mode === 'fixed' && input.fee_fixed_pence === 0) throw invalidParam('fee_fixed_pence');
  const s = { fee_mode: input.fee_mode, fee_percent_bp: input.fee_percent_bp, fee_fixed_pence: input.fee_fixed_pence };
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.saveSettings(trx, agencyId, s, now);
    await recordActivity(trx, actor, now, { action: 'recharge.settings', resourceType: 'agency', resourceId: agencyId, agencyId, details: s });
  });
  return settingsFor(deps.db, agencyId);
}

/** Wire shape of a recharge row. */
/**
 * Every recharge of a landlord (active and cancelled), in number order, as on the wire: the
 * "recharges" section of the landlord's GDPR report (docs/gdpr.md "Landlords").
 */
export async function rechargesOfLandlord(db: DbOrTrx, landlordId: number): Promise<RechargeDto[]> {
  return (await repo.rechargesOfLandlord(db, landlordId)).map(toRechargeDto);
}

export function toRechargeDto(r: repo.RechargeRow): RechargeDto {
  return {
    uuid: r.uuid, number: rechargeNumber(r.kind, r.number), kind: r.kind, status: r.status, recharge_date: r.recharge_date, landlord_uuid: r.landlord_uuid,
    landlord_name: r.landlord_name, address_uuid: r.address_uuid, property: `${r.address_line1}, ${r.address_town}, ${r.address_postcode}`, job_uuid: r.job_uuid,
    job_reference: r.job_reference, job_title: r.job_title, invoice_uuid: r.invoice_uuid, invoice_number: invoiceNumber(r.invoice_kind, r.invoice_number),
    credited_invoice_number: invoiceNumber('invoice', r.credited_number), contractor_name: r.contractor_name, share_bp: r.share_bp,
    cost_net_pence: r.cost_net_pence, cost_vat_pence: r.cost_vat_pence, fee_net_pence: r.fee_net_pence, fee_vat_pence: r.fee_vat_pence,
    fee_vat_rate_bp: r.fee_vat_rate_bp, total_pence: r.total_pence, vat_treatment: r.vat_treatment === 'recharge' ? 'recharge' : 'disbursement',
    cost_lines: (r.cost_lines as CostLine[] | null) ?? [], created_at: toIso(r.created_at), cancelled_at: toIsoOrNull(r.cancelled_at),
  };
}

/**
 * GET /api/recharges: a page of the agency's recharges (SysOps: every agency's), newest first.
 * @throws 404 'Landlord not found' / 'Job not found' for a filter outside the caller's agency
 */
export async function listRecharges(deps: AppDeps, auth: AuthContext, q: ListRechargesFilter) {
  const f: repo.RechargeFilter = { agencyId: readAgency(auth), ...(q.from_date ? { from: q.from_date } : {}), ...(q.to_date ? { to: q.to_date } : {}) };
  if (q.landlord_uuid) f.landlordId = (await getLandlordRow(deps.db, auth, q.landlord_uuid)).id;
  if (q.job_uuid) f.jobId = (await visibleJob(deps.db, auth, q.job_uuid)).id;
  const { rows, total } = await repo.listRecharges(deps.db, f, q);
  return { rows: rows.map(toRechargeDto), total };
}

function emptyTotals(): StatementTotals {
  return { jobs: 0, cost_net_pence: 0, cost_vat_pence: 0, fee_net_pence: 0, fee_vat_pence: 0, total_pence: 0 };
}

/** Totals of statement lines: the sums of their amounts and the number of distinct jobs. */
export function totalsOf(lines: readonly StatementLineDto[]): StatementTotals {
  const t = emptyTotals();
  for (const l of lines) {
    t.cost_net_pence += l.cost_net_pence;
    t.cost_vat_pence += l.cost_vat_pence;
    t.fee_net_pence += l.fee_net_pence;
    t.fee_vat_pence += l.fee_vat_pence;
    t.total_pence += l.total_pence;
  }
  t.jobs = new Set(lines.map((l) => l.job_reference)).size;
  return t;
}

/**
 * GET /api/landlords/{uuid}/statement: the landlord's active recharges dated in the period, per
 * property (by address), each property with its totals and the statement's totals over all. A
 * landlord login may read only its own landlord's statement.
 * @throws 400 to_date before from_date or more than 366 days after it; 404 'Landlord not found'
 *   (also another landlord's, for a landlord login)
 */
export async function statement(deps: AppDeps, auth: AuthContext, landlordUuid: string, q: StatementFilter): Promise<StatementDto> {
  const days = daysBetween(q.from_date, q.to_date);
  if (days < 0 || days > 366) throw invalidParam('to_date');
  const landlord = await getLandlordRow(deps.db, auth, landlordUuid);
  // A landlord login reads its own statement only (docs/works-orders.md "Landlord logins").
  if (auth.landlordId !== null && landlord.id !== auth.landlordId) throw notFound('Landlord');
  const rows = await repo.statementLines(deps.db, landlord.id, q.from_date, q.to_date);
  const agency = await repo.agencyLetterhead(deps.db, landlord.agency_id);
  const vatNumber = (await moneySettings(deps.db, landlord.agency_id)).vat_number;
  const opening = await repo.balanceBefore(deps.db, landlord.id, q.from_date);
  const payments = (await repo.ledgerEntries(deps.db, landlord.id, q.from_date, q.to_date)).map(toLedgerDto);
  const byProperty = new Map<string, StatementDto['properties'][number]>();
  for (const r of rows) {
    const d = toRechargeDto(r);
    const p = byProperty.get(d.address_uuid) ?? { address_uuid: d.address_uuid, property: d.property, lines: [], totals: emptyTotals() };
    p.lines.push({
      recharge_uuid: d.uuid, number: d.number, kind: d.kind, date: d.recharge_date, job_reference: d.job_reference, job_title: d.job_title,
      description: d.kind === 'credit' ? `${d.contractor_name} credit note ${d.invoice_number} (against ${d.credited_invoice_number})` : `${d.contractor_name} invoice ${d.invoice_number}`,
      share_bp: d.share_bp, cost_net_pence: d.cost_net_pence, cost_vat_pence: d.cost_vat_pence, fee_net_pence: d.fee_net_pence, fee_vat_pence: d.fee_vat_pence, total_pence: d.total_pence,
    });
    byProperty.set(d.address_uuid, p);
  }
  const properties = [...byProperty.values()];
  for (const p of properties) p.totals = totalsOf(p.lines);
  // An erased landlord's statement (a VAT record) carries the restricted name and address (docs/gdpr.md "Landlords").
  const party = (landlord.erased_at !== null ? await vatParticularsOf(deps.db, landlord.id) : undefined) ?? landlord;
  const address = [party.address_line1, party.address_line2, party.address_town, party.address_postcode].filter(Boolean).join(', ');
  const agencyAddress = [agency.registered_line1, agency.registered_line2, agency.registered_town, agency.registered_postcode].filter(Boolean).join(', ');
  const all = properties.flatMap((p) => p.lines);
  const charges = all.filter((l) => l.kind !== 'credit').reduce((s, l) => s + l.total_pence, 0);
  const credits = all.filter((l) => l.kind === 'credit').reduce((s, l) => s + l.total_pence, 0);
  const from = payments.filter((p) => p.kind === 'payment_from_landlord').reduce((s, p) => s + p.amount_pence, 0);
  const to = payments.filter((p) => p.kind === 'payment_to_landlord').reduce((s, p) => s + p.amount_pence, 0);
  // The agency's VAT invoices in the period (none when it has no VAT number): a recharge whose fee
  // (or, under the recharge treatment, whose cost) carries VAT, with its net and VAT per rate.
  const vatInvoices = vatNumber === null ? [] : rows.filter((r) => r.fee_vat_pence !== 0 || r.vat_treatment === 'recharge')
    .map((r) => vatInvoiceOf(toRechargeDto(r), r.original_number === null ? null : rechargeNumber('recharge', r.original_number)));
  return {
    landlord_uuid: landlord.uuid, landlord_name: party.name, landlord_address: address || null, agency_name: agency.legal_name ?? agency.name,
    agency_address: agencyAddress || null, agency_vat_number: vatNumber, from_date: q.from_date, to_date: q.to_date,
    opening_balance_pence: opening, charges_pence: charges, credits_pence: credits, payments_from_landlord_pence: from, payments_to_landlord_pence: to,
    closing_balance_pence: opening + charges + credits - from + to, payments, vat_invoices: vatInvoices, properties, totals: totalsOf(all),
  };
}

/** Label of a VAT rate on the agency's VAT invoice: 20% / 5% / 0% zero-rated / Exempt. */
export function rateLabelOf(code: string, bp: number): string {
  if (code === 'exempt') return 'Exempt';
  if (code === 'zero') return '0% zero-rated';
  if (code === 'none') return 'No VAT';
  return `${bp / 100}%`;
}

/**
 * The agency's VAT invoice (or VAT credit note) to the landlord that a recharge is (docs/money.md
 * "Statements"): its fee and, under the recharge treatment, the recharged work, with the net and
 * VAT **per rate** and the total VAT (VAT Regulations 1995 reg. 14(1)(g)-(k): for each rate the
 * total excluding VAT and the rate; the total VAT). Rates in the order: work rates as recharged
 * (cost_lines), then the fee's rate, one entry per rate.
 * @param d the recharge (pence signed: negative for a credit)
 * @param original a credit: the number of the recharge (VAT invoice) it corrects
 * @returns number, date, kind, net/VAT/gross totals and `rates` (each: code, basis points, label, net, VAT)
 */
export function vatInvoiceOf(d: RechargeDto, original: string | null): StatementDto['vat_invoices'][number] {
  const rates = new Map<string, StatementDto['vat_invoices'][number]['rates'][number]>();
  const add = (code: string, bp: number, net: number, vat: number) => {
    const key = `${code}:${bp}`;
    const r = rates.get(key) ?? { vat_rate: code, vat_rate_bp: bp, label: rateLabelOf(code, bp), net_pence: 0, vat_pence: 0 };
    r.net_pence += net;
    r.vat_pence += vat;
    rates.set(key, r);
  };
  if (d.vat_treatment === 'recharge') {
    if (d.cost_lines.length > 0) for (const l of d.cost_lines) add(l.vat_rate, l.vat_rate_bp, l.net_pence, l.vat_pence);
    else if (d.cost_net_pence !== 0 || d.cost_vat_pence !== 0) add('standard', d.fee_vat_rate_bp, d.cost_net_pence, d.cost_vat_pence);
  }
  if (d.fee_net_pence !== 0 || d.fee_vat_pence !== 0) add('standard', d.fee_vat_rate_bp, d.fee_net_pence, d.fee_vat_pence);
  const list = [...rates.values()];
  const net = list.reduce((s, r) => s + r.net_pence, 0);
  const vat = list.reduce((s, r) => s + r.vat_pence, 0);
  return {
    recharge_uuid: d.uuid, number: d.number, kind: d.kind === 'credit' ? 'credit_note' : 'invoice', date: d.recharge_date, tax_point: d.recharge_date,
    vat_treatment: d.vat_treatment, job_reference: d.job_reference, property: d.property,
    supply: d.vat_treatment === 'recharge'
      ? `Repairs at ${d.property} (${d.job_reference}, ${d.contractor_name}, your share ${(d.share_bp / 100).toFixed(2)} %) and the management fee`
      : `Management fee on ${d.job_reference}, ${d.property}`,
    credits: d.kind === 'credit' ? original : null,
    rates: list, net_pence: net, vat_pence: vat, gross_pence: net + vat,
  };
}

function toLedgerDto(r: Awaited<ReturnType<typeof repo.ledgerEntries>>[number]): LedgerEntryDto {
  return { uuid: r.uuid, kind: r.kind as LedgerEntryDto['kind'], entry_date: r.entry_date, amount_pence: r.amount_pence, reference: r.reference, description: r.description, created_at: toIso(r.created_at) };
}

/**
 * POST /api/landlords/{uuid}/ledger-entries: records a payment the agency made to the landlord or
 * received from it (rent collection itself is out of scope: the agency enters the money that moved),
 * so the landlord's statement balances (docs/money.md "Statements").
 * @returns the entry
 * @throws 400 entry_date in the future; 403 a landlord login or SysOps without an agency; 404 landlord
 */
export async function addLedgerEntry(deps: AppDeps, auth: AuthContext, actor: Actor, landlordUuid: string, input: LedgerEntryInput): Promise<LedgerEntryDto> {
  writeAgency(auth);
  const landlord = await getLandlordRow(deps.db, auth, landlordUuid);
  if (auth.landlordId !== null) throw notFound('Landlord');
  const now = deps.clock.now();
  if (input.entry_date > londonDate(now)) throw invalidParam('entry_date');
  const entryUuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const id = await repo.insertLedgerEntry(trx, {
      uuid: entryUuid, agency_id: landlord.agency_id, landlord_id: landlord.id, kind: input.kind, entry_date: input.entry_date, amount_pence: input.amount_pence,
      reference: input.reference ?? null, description: input.description ?? null, created_by_user_id: auth.userId, created_at: now,
    });
    await recordActivity(trx, actor, now, { action: 'landlord.ledger_entry', resourceType: 'landlord', resourceId: landlord.id, agencyId: landlord.agency_id, details: { entry_id: id, kind: input.kind, amount_pence: input.amount_pence } });
  });
  return (await repo.ledgerEntries(deps.db, landlord.id)).map(toLedgerDto).find((e) => e.uuid === entryUuid)!;
}

/** GET /api/landlords/{uuid}/ledger-entries: the landlord's recorded payments, oldest first. @throws 404 */
export async function listLedgerEntries(deps: AppDeps, auth: AuthContext, landlordUuid: string): Promise<LedgerEntryDto[]> {
  const landlord = await getLandlordRow(deps.db, auth, landlordUuid);
  if (auth.landlordId !== null && landlord.id !== auth.landlordId) throw notFound('Landlord');
  return (await repo.ledgerEntries(deps.db, landlord.id)).map(toLedgerDto);
}
