/**
 * Demo step of the landlords area (docs/landlords.md): Northwind's approval settings (agency
 * default spend limit £250, reminder after 48 h, expiry after 120 h), eight landlords (people and
 * companies, some with bank details and VAT numbers) owning the first Leeds and York properties
 * (two of them jointly, 60/40 and 50/50), one property with its own limit, and one approval in
 * each state (pending, approved, declined, question, expired, cancelled) on jobs at those
 * properties, each with its link row. Deterministic: uuids and link nonces from ctx.uuid().
 */
import type { DemoContext } from './context.ts';
import { firstAddressIds, insertId, insertRows, jobsAtAddresses, updateById } from '../../db/seed.repository.ts';

const LANDLORDS: Array<{
  kind: 'person' | 'company'; name: string; email: string; phone: string; line1: string; town: string; postcode: string;
  bank?: [string, string, string]; vat?: string; limit: number | null;
}> = [
  { kind: 'person', name: 'Margaret Ellison', email: 'margaret.ellison@example.test', phone: '0113 496 0101', line1: '4 Oakwood Lane', town: 'Leeds', postcode: 'LS8 2PF', bank: ['M Ellison', '40-12-76', '31926819'], limit: 30_000 },
  { kind: 'company', name: 'Aire Valley Properties Ltd', email: 'accounts@airevalley.example.test', phone: '0113 496 0102', line1: 'Unit 3, Canal Wharf', town: 'Leeds', postcode: 'LS11 5PS', bank: ['Aire Valley Properties Ltd', '20-45-77', '53019284'], vat: 'GB318472019', limit: 100_000 },
  { kind: 'person', name: 'Rajesh Patel', email: 'raj.patel@example.test', phone: '07700 900201', line1: '17 Beech Grove', town: 'Harrogate', postcode: 'HG2 0LT', limit: null },
  { kind: 'person', name: 'Susan Patel', email: 'susan.patel@example.test', phone: '07700 900202', line1: '17 Beech Grove', town: 'Harrogate', postcode: 'HG2 0LT', limit: null },
  { kind: 'company', name: 'Minster Homes LLP', email: 'lettings@minsterhomes.example.test', phone: '01904 496 0103', line1: '2 Stonegate', town: 'York', postcode: 'YO1 8AS', bank: ['Minster Homes LLP', '30-99-50', '71264408'], vat: 'GB702218845', limit: 50_000 },
  { kind: 'person', name: 'David Okafor', email: 'd.okafor@example.test', phone: '07700 900204', line1: 'Flat 9, 1 Wellington Place', town: 'Leeds', postcode: 'LS1 4AP', limit: 20_000 },
  { kind: 'person', name: 'Helen Garside', email: 'helen.garside@example.test', phone: '01904 496 0105', line1: '31 Bootham', town: 'York', postcode: 'YO30 7BT', bank: ['H Garside', '09-01-28', '44520917'], limit: null },
  { kind: 'person', name: 'Thomas Whitaker', email: 't.whitaker@example.test', phone: '07700 900206', line1: '8 Station Road', town: 'Ilkley', postcode: 'LS29 8HA', limit: 40_000 },
];

/** Owners by property index: [landlord index, share in basis points]. */
const OWNERSHIP: Array<Array<[number, number]>> = [
  [[0, 10_000]], [[1, 10_000]], [[2, 6_000], [3, 4_000]], [[1, 10_000]], [[4, 10_000]], [[5, 10_000]], [[6, 5_000], [7, 5_000]], [[4, 10_000]],
  [[0, 10_000]], [[1, 10_000]], [[7, 10_000]], [[5, 10_000]],
];

const STATES = ['pending', 'approved', 'declined', 'question', 'expired', 'cancelled'] as const;
const COMMENTS: Record<(typeof STATES)[number], string | null> = {
  pending: null,
  approved: 'Fine, please go ahead.',
  declined: 'Too expensive; please find another contractor.',
  question: 'Is the old boiler really beyond repair?',
  expired: null,
  cancelled: null,
};
const HOUR = 3_600_000;

/** Writes the landlord records of Northwind. */
export async function landlordsStep(ctx: DemoContext): Promise<void> {
  const { trx, ids } = ctx;
  const agencyId = ids.agencies.northwind;
  // The agency default limit lives on the agency (docs/onboarding.md, "One source of truth").
  await updateById(trx, 'agencies', agencyId, { default_approval_limit_pence: 25_000 });
  await insertRows(trx, 'landlord_settings', [{ agency_id: agencyId, reminder_after_hours: 48, expires_after_hours: 120, updated_at: ctx.now }]);
  const landlordIds: number[] = [];
  for (const l of LANDLORDS) {
    landlordIds.push(await insertId(trx, 'landlords', {
      uuid: ctx.uuid(), agency_id: agencyId, kind: l.kind, name: l.name, email: l.email, phone: l.phone, address_line1: l.line1, address_line2: null,
      address_town: l.town, address_postcode: l.postcode, bank_account_name: l.bank?.[0] ?? null, bank_sort_code: l.bank?.[1] ?? null,
      bank_account_number: l.bank?.[2] ?? null, vat_registered: l.vat !== undefined, vat_number: l.vat ?? null, approval_limit_pence: l.limit, notes: null,
      created_at: ctx.now, updated_at: ctx.now, erased_at: null,
    }));
  }
  const properties = await firstAddressIds(trx, agencyId, OWNERSHIP.length);
  for (const [i, owners] of OWNERSHIP.entries()) {
    const address = properties[i];
    if (address === undefined) break;
    for (const [l, share] of owners) {
      await insertRows(trx, 'landlord_properties', [{ landlord_id: landlordIds[l]!, address_id: address, share_bp: share, created_at: ctx.now }]);
    }
  }
  if (properties[1] !== undefined) await insertRows(trx, 'property_approval_limits', [{ address_id: properties[1], limit_pence: 60_000, updated_at: ctx.now }]);

  // One approval in each state, on jobs at owned properties (the largest owner asked).
  const owned = properties;
  const jobs = await jobsAtAddresses(trx, agencyId, owned, STATES.length);
  for (const [i, job] of jobs.entries()) {
    const state = STATES[i]!;
    const owners = OWNERSHIP[owned.indexOf(job.address_id!)]!;
    const landlord = owners.reduce((a, b) => (b[1] > a[1] ? b : a));
    const landlordId = landlordIds[landlord[0]]!;
    const created = new Date(ctx.now.getTime() - (state === 'pending' ? 2 : state === 'expired' ? 130 : 30) * HOUR);
    const expires = new Date(created.getTime() + 120 * HOUR);
    const answered = state === 'approved' || state === 'declined' || state === 'question' ? new Date(created.getTime() + 5 * HOUR) : null;
    const amount = 32_000 + i * 11_750;
    const approvalId = await insertId(trx, 'approval_requests', {
      uuid: ctx.uuid(), agency_id: agencyId, job_id: job.id, quote_id: null, landlord_id: landlordId, amount_pence: amount, limit_pence: 25_000,
      description: `Repair: ${job.title}`, status: state, comment: COMMENTS[state], requested_by_user_id: ids.users['agent@northwind.test'] ?? null,
      created_at: created, expires_at: expires, reminded_at: state === 'expired' ? new Date(created.getTime() + 48 * HOUR) : null, answered_at: answered,
      escalated_at: state === 'expired' ? expires : null, updated_at: answered ?? created,
    });
    await insertRows(trx, 'approval_links', [{
      approval_id: approvalId, landlord_id: landlordId, nonce: ctx.uuid().replace(/-/g, ''), expires_at: expires, created_at: created,
      used_at: answered, used_action: answered ? { approved: 'approve', declined: 'decline', question: 'question' }[state as 'approved'] : null,
      revoked_at: state === 'cancelled' ? new Date(created.getTime() + 6 * HOUR) : null,
    }]);
  }
  ctx.log(`landlords: ${landlordIds.length} landlords, ${OWNERSHIP.length} properties, ${jobs.length} approvals`);
}
