/**
 * Demo tenants and contractors (issue "Foundation" item 4): 150 tenants linked to addresses of
 * their agency (some joint tenancies, a few tenants on two addresses) and 30 contractors with 1-3
 * trades each. Contact details are safe to use: e-mails on reserved domains (example.com/.org/.net,
 * .example) and Ofcom's drama numbers (07700 900xxx, 0113 496 0xxx, 020 7946 0xxx).
 */
import type { Insertable } from 'kysely';
import type { ContractorTable, TenantTable } from '../../db/schema.ts';
import type { DemoAddress } from './addresses.ts';
import { chunks } from './addresses.ts';
import type { DemoContext, Rng } from './context.ts';
import { CONTRACTORS, FLETCHER, GIVEN_NAMES, SURNAMES, TENANTS_PER_AGENCY } from './people-data.ts';
import type { Region } from './places-data.ts';
import { officeMomentDaysAgo } from './time.ts';
import { insertReturning, insertRows } from '../../db/seed.repository.ts';

export interface DemoTenant {
  id: number;
  agencyId: number;
  name: string;
  /** When the tenancy began (ms); jobs before it do not name this tenant. */
  since: number;
  addressIds: number[];
}

export interface DemoContractor {
  id: number;
  agencyId: number;
  region: Region;
  company: string;
  trades: string[];
}

export interface DemoPeople {
  tenants: DemoTenant[];
  /** Address id -> its tenants. */
  tenantsByAddress: Map<number, DemoTenant[]>;
  contractors: DemoContractor[];
  emily: DemoTenant;
  fletcher: DemoContractor;
}

/** Draws unique values from `make`, retrying on a repeat. */
function uniqueDraw(seen: Set<string>, make: () => string): string {
  for (;;) {
    const value = make();
    if (!seen.has(value)) {
      seen.add(value);
      return value;
    }
  }
}

const ascii = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();

/** A personal e-mail on a reserved example domain, unique within `seen`. */
function personalEmail(rng: Rng, first: string, last: string, seen: Set<string>): string {
  return uniqueDraw(seen, () => {
    const domain = rng.pick(['example.com', 'example.com', 'example.org', 'example.net']);
    const style = rng.int(1, 10);
    const local =
      style <= 6 ? `${ascii(first)}.${ascii(last)}` : style <= 8 ? `${ascii(first)}${ascii(last)}${rng.int(10, 99)}` : `${ascii(first)[0]}.${ascii(last)}`;
    const suffix = seen.has(`${local}@${domain}`) ? String(rng.int(1, 99)) : '';
    return `${local}${suffix}@${domain}`;
  });
}

/** Shuffles a copy (Fisher-Yates, seeded). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Creates tenants (with tenant_addresses) and contractors (with contractor_trades). */
export async function createPeople(ctx: DemoContext, addresses: DemoAddress[]): Promise<DemoPeople> {
  const { rng, trx, now, ids } = ctx;
  const phones = new Set<string>();
  const emails = new Set<string>(['tenant@northwind.test', 'contractor@northwind.test']);
  const mobile = () => uniqueDraw(phones, () => `07700 900${String(rng.int(0, 999)).padStart(3, '0')}`);
  const name = () => `${rng.pick(GIVEN_NAMES)} ${rng.pick(SURNAMES)}`;

  // Tenants: households on shuffled addresses; ~12% joint tenants; a few tenants on two addresses.
  interface TenantDraft { row: Insertable<TenantTable>; name: string; since: number; addressIds: number[] }
  const drafts: TenantDraft[] = [];
  const emilyAddress = addresses[0]!;
  const emilySince = officeMomentDaysAgo(rng, now, 700, 900);
  drafts.push({
    row: { uuid: ctx.uuid(), agency_id: emilyAddress.agencyId, name: 'Emily Clarke', email: 'tenant@northwind.test', phone: mobile(), created_at: emilySince, updated_at: emilySince },
    name: 'Emily Clarke',
    since: emilySince.getTime(),
    addressIds: [emilyAddress.id],
  });
  for (const [agency, count] of Object.entries(TENANTS_PER_AGENCY) as Array<[keyof typeof TENANTS_PER_AGENCY, number]>) {
    const agencyId = ids.agencies[agency];
    const pool = shuffled(rng, addresses.filter((a) => a.agencyId === agencyId && a.id !== emilyAddress.id));
    let made = agency === 'northwind' ? 1 : 0;
    let next = 0;
    let previous: TenantDraft | undefined;
    while (made < count) {
      const joint = previous !== undefined && rng.chance(0.12);
      const [first, surname] = [rng.pick(GIVEN_NAMES), joint && rng.chance(0.5) ? previous!.name.split(' ')[1]! : rng.pick(SURNAMES)];
      const fullName = `${first} ${surname}`;
      const address = joint ? previous!.addressIds[0]! : pool[next++]!.id;
      const recent = rng.chance(0.25);
      const since = joint ? previous!.since : officeMomentDaysAgo(rng, now, recent ? 20 : 370, recent ? 360 : 1800).getTime();
      const draft: TenantDraft = {
        row: { uuid: ctx.uuid(), agency_id: agencyId, name: fullName, email: personalEmail(rng, first, surname, emails), phone: mobile(), created_at: new Date(since), updated_at: new Date(since) },
        name: fullName,
        since,
        addressIds: [address],
      };
      if (!joint && rng.chance(0.04) && next < pool.length) draft.addressIds.push(pool[next++]!.id);
      drafts.push(draft);
      previous = joint ? undefined : draft;
      made++;
    }
  }
  const tenantIds = new Map<string, number>();
  for (const part of chunks(drafts.map((x) => x.row), 100)) {
    for (const r of await insertReturning(trx, 'tenants', part)) tenantIds.set(r.uuid, r.id);
  }
  const tenants: DemoTenant[] = drafts.map((x) => ({ id: tenantIds.get(x.row.uuid)!, agencyId: x.row.agency_id, name: x.name, since: x.since, addressIds: x.addressIds }));
  const links = tenants.flatMap((t) => t.addressIds.map((addressId) => ({ tenant_id: t.id, address_id: addressId, created_at: new Date(t.since) })));
  for (const part of chunks(links, 200)) await insertRows(trx, 'tenant_addresses', part);
  const tenantsByAddress = new Map<number, DemoTenant[]>();
  for (const t of tenants) for (const a of t.addressIds) tenantsByAddress.set(a, [...(tenantsByAddress.get(a) ?? []), t]);
  ids.tenants = tenants.map((t) => t.id);
  ctx.log(`demo: ${tenants.length} tenants`);

  // Contractors.
  const landline = (region: Region) =>
    uniqueDraw(phones, () => (region === 'leeds' ? `0113 496 0${String(rng.int(0, 999)).padStart(3, '0')}` : region === 'london' ? `020 7946 0${String(rng.int(0, 999)).padStart(3, '0')}` : `07700 900${String(rng.int(0, 999)).padStart(3, '0')}`));
  const contractorRows: Array<Insertable<ContractorTable>> = CONTRACTORS.map((spec) => {
    const since = officeMomentDaysAgo(rng, now, 400, 2500);
    const slug = ascii(spec.company.replace(/\b(Ltd|Co|Services)\b/g, '').replace('&', 'and'));
    return {
      uuid: ctx.uuid(),
      agency_id: spec.region === 'london' ? ids.agencies.southbank : ids.agencies.northwind,
      company_name: spec.company,
      contact_name: spec.contact ?? name(),
      email: spec.email ?? `${rng.pick(['info', 'office', 'jobs', 'enquiries'])}@${slug}.example`,
      phone: landline(spec.region),
      created_at: since,
      updated_at: since,
    };
  });
  const contractorIds = new Map<string, number>();
  for (const r of await insertReturning(trx, 'contractors', contractorRows)) contractorIds.set(r.uuid, r.id);
  const contractors: DemoContractor[] = CONTRACTORS.map((spec, i) => ({
    id: contractorIds.get(contractorRows[i]!.uuid)!,
    agencyId: contractorRows[i]!.agency_id,
    region: spec.region,
    company: spec.company,
    trades: spec.trades,
  }));
  const tradeLinks = contractors.flatMap((c) =>
    c.trades.map((code) => {
      const tradeId = ids.trades[code];
      if (tradeId === undefined) throw new Error(`demo: unknown trade ${code}`);
      return { contractor_id: c.id, trade_id: tradeId };
    }),
  );
  await insertRows(trx, 'contractor_trades', tradeLinks);
  ids.contractors = contractors.map((c) => c.id);
  ctx.log(`demo: ${contractors.length} contractors`);

  const fletcher = contractors.find((c) => c.company === FLETCHER)!;
  ids.demoTenantId = tenants[0]!.id;
  ids.demoContractorId = fletcher.id;
  return { tenants, tenantsByAddress, contractors, emily: tenants[0]!, fletcher };
}
