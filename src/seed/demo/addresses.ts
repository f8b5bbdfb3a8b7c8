/**
 * Demo addresses (issue "Foundation" item 4): about 200 UK street addresses in Leeds and York
 * (Northwind Lettings) and London (Southbank Estates), valid postcode format, some flats, each on
 * the nearest branch of its agency.
 */
import type { Insertable } from 'kysely';
import type { AddressTable } from '../../db/schema.ts';
import { pickWeighted, type DemoContext, type Rng } from './context.ts';
import { officeMomentDaysAgo } from './time.ts';
import { ADDRESSES_PER_REGION, BRANCH_LOCATIONS, DISTRICTS, INWARD_LETTERS, type District, type Region } from './places-data.ts';
import { insertReturning } from '../../db/seed.repository.ts';

/** An address as the later demo sub-steps need it. */
export interface DemoAddress {
  id: number;
  agencyId: number;
  branchId: number;
  region: Region;
  district: District;
  line1: string;
  line2: string | null;
  postcode: string;
}

/** The address of the demo tenant Emily Clarke (tenant@northwind.test). */
export const EMILY_ADDRESS = { line1: '27 Ash Road', line2: 'Flat 2', postcode: 'LS6 3HN' } as const;

/** Splits rows into chunks for multi-row inserts. */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** A random inward code: digit + two letters from the allowed set, e.g. "3HN". */
function inwardCode(rng: Rng): string {
  return `${rng.int(0, 9)}${rng.pick([...INWARD_LETTERS])}${rng.pick([...INWARD_LETTERS])}`;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

interface Draft {
  region: Region;
  district: District;
  line1: string;
  line2: string | null;
  postcode: string;
  lat: number;
  lon: number;
}

/** Draws the addresses of one region, unique by (line1, line2). */
function draftRegion(rng: Rng, region: Region, count: number, taken: Set<string>, drafts: Draft[]): void {
  const districts = DISTRICTS.filter((x) => x.region === region);
  const streetPostcodes = new Map<string, string[]>();
  let made = 0;
  while (made < count) {
    const district = pickWeighted(rng, districts, (x) => x.weight);
    const street = rng.pick(district.streets);
    const number = rng.chance(0.8) ? rng.int(1, 160) : rng.int(161, 320);
    const isFlat = rng.chance(district.flats);
    const cityCentre = district.area === 'City Centre' || district.outward === 'SE1';
    const line2 = !isFlat ? null : cityCentre && rng.chance(0.6) ? `Apartment ${rng.int(1, 7)}0${rng.int(1, 9)}` : `Flat ${rng.int(1, 8)}`;
    const line1 = `${number} ${street}`;
    const key = `${district.outward}|${line1}|${line2 ?? ''}`;
    if (taken.has(key)) continue;
    taken.add(key);
    const streetKey = `${district.outward}|${street}`;
    const known = streetPostcodes.get(streetKey) ?? [];
    let postcode: string;
    if (known.length > 0 && rng.chance(0.6)) postcode = rng.pick(known);
    else {
      postcode = `${district.outward} ${inwardCode(rng)}`;
      known.push(postcode);
      streetPostcodes.set(streetKey, known);
    }
    const lat = round6(district.lat + (rng.next() - 0.5) * 0.016);
    const lon = round6(district.lon + (rng.next() - 0.5) * 0.024);
    drafts.push({ region, district, line1, line2, postcode, lat, lon });
    made++;
  }
}

/**
 * Inserts the demo addresses in multi-row batches; records their ids in ctx.ids.addresses.
 * The first Leeds address is Emily Clarke's (EMILY_ADDRESS, LS6 Headingley).
 */
export async function createAddresses(ctx: DemoContext): Promise<DemoAddress[]> {
  const { rng, trx, now, ids } = ctx;
  const ls6 = DISTRICTS.find((x) => x.outward === 'LS6')!;
  const drafts: Draft[] = [
    { region: 'leeds', district: ls6, ...EMILY_ADDRESS, lat: 53.8224, lon: -1.5761 },
  ];
  const taken = new Set([`LS6|${EMILY_ADDRESS.line1}|${EMILY_ADDRESS.line2}`]);
  for (const region of ['leeds', 'york', 'london'] as const) {
    draftRegion(rng, region, ADDRESSES_PER_REGION[region] - (region === 'leeds' ? 1 : 0), taken, drafts);
  }

  const branchOf = (draft: Draft) => {
    const candidates: Array<'leeds' | 'york' | 'london'> = draft.region === 'london' ? ['london'] : ['leeds', 'york'];
    let best = candidates[0]!;
    for (const c of candidates) {
      if (distanceKm(draft, BRANCH_LOCATIONS[c]) < distanceKm(draft, BRANCH_LOCATIONS[best])) best = c;
    }
    return ids.branches[best];
  };
  const rows: Array<Insertable<AddressTable>> = drafts.map((x) => {
    const added = officeMomentDaysAgo(rng, now, 380, 2200);
    return {
      uuid: ctx.uuid(),
      agency_id: x.region === 'london' ? ids.agencies.southbank : ids.agencies.northwind,
      branch_id: branchOf(x),
      line1: x.line1,
      line2: x.line2,
      town: x.district.town,
      county: x.district.county,
      postcode: x.postcode,
      latitude: x.lat,
      longitude: x.lon,
      created_at: added,
      updated_at: added,
    };
  });
  const idByUuid = new Map<string, number>();
  for (const part of chunks(rows, 100)) {
    for (const r of await insertReturning(trx, 'addresses', part)) idByUuid.set(r.uuid, r.id);
  }
  const out = rows.map((row, i) => ({
    id: idByUuid.get(row.uuid)!,
    agencyId: row.agency_id,
    branchId: row.branch_id!,
    region: drafts[i]!.region,
    district: drafts[i]!.district,
    line1: row.line1,
    line2: row.line2 ?? null,
    postcode: row.postcode,
  }));
  ids.addresses = out.map((a) => a.id);
  ctx.log(`demo: ${out.length} addresses`);
  return out;
}
