/**
 * UK addresses done right (docs/tenants.md "Address parts", "Buildings", "Postcode lookup";
 * docs/onboarding.md "Round trip"): postcodes checked and never rewritten (property-based), a
 * block of 12 flats created, edited, added to, imported and searched, the postcodes.io lookup
 * against a local server answering as postcodes.io does, and the export re-imported unchanged on
 * generated agencies (unicode names, flats, formulas, empty optional fields; property-based).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, linesFromParts, partsFromLines } from '../../../src/modules/people/addresses/address-parts.ts';
import { compareDistricts, normalisePostcode, postcodeProblem } from '../../../src/modules/people/addresses/postcode.ts';
import { readCell, safeCell } from '../../../src/lib/spreadsheet-safe.ts';
import { buildTestApp, createAgency, createBranch, userClient, type Client, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';
import { unzip } from '../../platform/gdpr/unzip.ts';
import { insertJob, tradeId } from '../contractors/helpers.ts';

const letter = (set: string) => fc.constantFrom(...set.split(''));
/** Valid outward codes in the shapes Royal Mail uses: A9, A99, AA9, AA99, A9A, AA9A. */
const outward = fc.oneof(
  fc.tuple(letter('ABCDEFGHIJKLMNOPRSTUWYZ'), fc.integer({ min: 1, max: 99 })).map(([a, n]) => `${a}${n}`),
  fc.tuple(letter('ABCDEFGHIJKLMNOPRSTUWYZ'), letter('ABCDEFGHKLMNOPQRSTUVWXY'), fc.integer({ min: 1, max: 99 })).map(([a, b, n]) => `${a}${b}${n}`),
  fc.tuple(letter('ABCDEFGHIJKLMNOPRSTUWYZ'), fc.integer({ min: 1, max: 9 }), letter('ABCDEFGHJKPSTUW')).map(([a, n, c]) => `${a}${n}${c}`),
  fc.tuple(letter('ABCDEFGHIJKLMNOPRSTUWYZ'), letter('ABCDEFGHKLMNOPQRSTUVWXY'), fc.integer({ min: 1, max: 9 }), letter('ABEHMNPRVWXY')).map(([a, b, n, c]) => `${a}${b}${n}${c}`),
);
const inward = fc.tuple(fc.integer({ min: 0, max: 9 }), letter('ABDEFGHJLNPQRSTUWXYZ'), letter('ABDEFGHJLNPQRSTUWXYZ')).map(([n, a, b]) => `${n}${a}${b}`);
const postcode = fc.tuple(outward, inward).map(([o, i]) => `${o} ${i}`);
const respell = (pc: string) =>
  fc.tuple(fc.boolean(), fc.constantFrom('', ' ', '  ', '\t'), fc.constantFrom('', ' ')).map(([lower, space, pad]) => {
    const [o, i] = pc.split(' ');
    const s = `${pad}${o}${space}${i}${pad}`;
    return lower ? s.toLowerCase() : s;
  });

describe('postcode rules (property-based)', () => {
  it('a valid postcode in any case and spacing normalises to itself; a space elsewhere is refused, never moved', () => {
    fc.assert(
      fc.property(postcode.chain((pc) => fc.tuple(fc.constant(pc), respell(pc))), ([pc, spelt]) => {
        expect(normalisePostcode(spelt)).toBe(pc);
        expect(normalisePostcode(pc)).toBe(pc);
      }),
    );
    fc.assert(
      fc.property(postcode, fc.integer({ min: 1, max: 4 }), (pc, at) => {
        const compact = pc.replace(' ', '');
        fc.pre(at !== compact.length - 3);
        const moved = `${compact.slice(0, at)} ${compact.slice(at)}`;
        expect(normalisePostcode(moved)).toBeNull();
        expect(postcodeProblem(moved)).not.toBeNull();
      }),
    );
  });

  it('LS6 12AB is refused with the reason, not stored as LS61 2AB', () => {
    expect(normalisePostcode('LS6 12AB')).toBeNull();
    expect(postcodeProblem('LS6 12AB')).toMatch(/inward code/);
    expect(normalisePostcode('LS612AB')).toBe('LS61 2AB');
    expect(normalisePostcode('QQ1 1AA')).toBeNull();
    expect(normalisePostcode('LS6 3CI')).toBeNull();
  });

  it('postcode districts sort naturally: LS7 before LS17, SW1 before SW1A before SW2', () => {
    expect(['LS17', 'LS7', 'LS1', 'SW2', 'SW1A', 'SW1', 'B1'].sort(compareDistricts)).toEqual(['B1', 'LS1', 'LS7', 'LS17', 'SW1', 'SW1A', 'SW2']);
    fc.assert(fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 99 }), (a, b) => {
      expect(Math.sign(compareDistricts(`LS${a}`, `LS${b}`))).toBe(Math.sign(a - b));
    }));
  });

  it('a spreadsheet cell read back is the text written: readCell(safeCell(t)) === t', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string().map((s) => `=${s}`), fc.string().map((s) => `'=${s}`), fc.string().map((s) => `''+${s}`)), (text) => {
      expect(readCell(safeCell(text))).toBe(text);
    }));
    expect(safeCell('=1+1')).toBe("'=1+1");
    expect(readCell("'=1+1")).toBe('=1+1');
  });

  it('parts and lines: composed lines read back to the same parts; the whole address is the key', () => {
    const p = { sub_building: 'Flat 3', building_name: 'Aire Court', building_number: '21', street: 'The Calls', locality: null };
    expect(linesFromParts(p)).toEqual({ line1: 'Flat 3, Aire Court', line2: '21 The Calls', line3: null });
    expect(partsFromLines(['Flat 3, Aire Court', '21 The Calls'])).toEqual(p);
    expect(partsFromLines(['21 The Calls', 'Flat 3'])).toEqual({ ...p, building_name: null });
    expect(addressKey(partsFromLines(['21 The Calls', 'Flat 3']), 'LS1 7BN')).not.toBe(addressKey(partsFromLines(['21 The Calls', 'Flat 7']), 'LS1 7BN'));
  });
});

/** One local server answering GET /postcodes/{postcode} as postcodes.io does. */
function postcodesIo() {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const pc = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/postcodes\//, '')).toUpperCase();
    seen.push(pc);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (pc === 'LS17BN') {
      return send(200, {
        status: 200,
        result: {
          postcode: 'LS1 7BN', quality: 1, eastings: 430600, northings: 433200, country: 'England', nhs_ha: 'Yorkshire and the Humber', longitude: -1.537904, latitude: 53.794566,
          european_electoral_region: 'Yorkshire and The Humber', primary_care_trust: 'Leeds', region: 'Yorkshire and The Humber', incode: '7BN', outcode: 'LS1',
          parliamentary_constituency: 'Leeds Central and Headingley', admin_district: 'Leeds', parish: 'Leeds, unparished area', admin_county: null, admin_ward: 'Little London & Woodhouse',
          codes: { admin_district: 'E08000035' },
        },
      });
    }
    return send(404, { status: 404, error: 'Postcode not found' });
  });
  return { server, seen };
}

describe('a block of flats, the postcode lookup, the round trip', () => {
  let t: TestApp;
  let admin: Client;
  let io: ReturnType<typeof postcodesIo>;

  const dryRun = async (client: Client, entity: string, csv: string | Buffer, name = `${entity}.csv`) => {
    const res = await client.post('/api/imports', form(Buffer.isBuffer(csv) ? csv : Buffer.from(csv), name, { entity }));
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as { uuid: string; counts: Record<string, number>; rows: Array<{ row: number; outcome: string; errors: unknown[]; warnings?: Array<{ column: string }> }> };
  };
  const importCsv = async (client: Client, entity: string, csv: string | Buffer) => {
    const dry = await dryRun(client, entity, csv);
    expect(dry.counts.error, JSON.stringify(dry.rows.filter((r) => r.errors.length))).toBe(0);
    const done = await client.post(`/api/imports/${dry.uuid}/commit`);
    expect(done.json().data, done.body).toMatchObject({ status: 'committed' });
    return dry;
  };

  beforeAll(async () => {
    io = postcodesIo();
    await new Promise<void>((r) => io.server.listen(0, '127.0.0.1', () => r()));
    t = await buildTestApp({ CARETAKER_WEATHER_GEOCODE_URL: `http://127.0.0.1:${(io.server.address() as AddressInfo).port}`, CARETAKER_WEATHER_TIMEOUT_MS: '2000' });
    const agency = await createAgency(t.db, 'Aire Lets');
    await createBranch(t.db, agency.id, 'Leeds City');
    admin = (await userClient(t, { role: 'admin', agencyId: agency.id })).client;
  });
  afterAll(async () => {
    await t?.close();
    io?.server.close();
  });

  it('a block of 12 flats: created, edited, added to and searched; a bad postcode is refused naming why', async () => {
    const block = await admin.post('/api/buildings', { building_name: 'Aire Court', building_number: '21', street: 'The Calls', town: 'Leeds', postcode: 'ls1 7bn' });
    expect(block.statusCode, block.body).toBe(201);
    const b = block.json().data;
    for (let n = 1; n <= 12; n++) {
      const res = await admin.post('/api/addresses', { building_uuid: b.uuid, sub_building: `Flat ${n}` });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ line1: `Flat ${n}, Aire Court`, line2: '21 The Calls', postcode: 'LS1 7BN', town: 'Leeds', building_uuid: b.uuid, street: 'The Calls' });
    }
    const communal = await admin.post('/api/addresses', { building_uuid: b.uuid, sub_building: 'Communal areas', is_communal: true });
    expect(communal.json().data.is_communal).toBe(true);
    const read = (await admin.get(`/api/buildings/${b.uuid}`)).json().data;
    expect(read.units).toBe(13);
    expect(read.unit_addresses).toHaveLength(13);
    expect(read.unit_addresses.map((u: { sub_building: string }) => u.sub_building).slice(0, 3)).toEqual(['Communal areas', 'Flat 1', 'Flat 2']);
    const flat3 = read.unit_addresses.find((u: { sub_building: string }) => u.sub_building === 'Flat 3');
    // Editing one flat, as the form does, is no longer refused as a duplicate of its neighbours.
    const edit = await admin.put(`/api/addresses/${flat3.uuid}`, { county: 'West Yorkshire', line1: 'Flat 3, Aire Court', line2: '21 The Calls' });
    expect(edit.statusCode, edit.body).toBe(200);
    // The same flat twice is.
    expect((await admin.post('/api/addresses', { building_uuid: b.uuid, sub_building: 'flat 3' })).statusCode).toBe(409);
    // A flat typed by its lines joins the block too.
    const byLines = await admin.post('/api/addresses', { line1: '21 The Calls', line2: 'Flat 13', town: 'Leeds', postcode: 'LS1 7BN' });
    expect(byLines.statusCode, byLines.body).toBe(201);
    expect(byLines.json().data.building_uuid).toBe(b.uuid);
    const bad = await admin.post('/api/addresses', { building_uuid: b.uuid, sub_building: 'Flat 14', postcode: 'LS6 12AB' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^Invalid or missing required parameter: postcode \(LS6 12AB: .*inward code/);
    // Renaming the building carries to its flats.
    expect((await admin.put(`/api/buildings/${b.uuid}`, { building_name: 'Aire Court East' })).statusCode).toBe(200);
    const flat1 = (await admin.get(`/api/addresses?q=${encodeURIComponent('Flat 1,')}`)).json().data;
    expect(flat1.map((a: { line1: string }) => a.line1)).toContain('Flat 1, Aire Court East');
    // Search: the building by its name, a flat by its number.
    expect((await admin.get('/api/buildings?q=aire%20court')).json().data.map((x: { building_name: string }) => x.building_name)).toEqual(['Aire Court East']);
    expect((await admin.get('/api/addresses?q=aire%20court%20east&limit=100')).json().data.length).toBeGreaterThanOrEqual(13);
    expect((await admin.get(`/api/addresses?building_uuid=${b.uuid}&limit=100`)).json().data).toHaveLength(14);
  });

  it('the postcode lookup, where the agency enables it: coordinates and an empty town filled, an unknown postcode refused', async () => {
    expect((await admin.put('/api/agencies/current', { postcode_lookup: true })).json().data.postcode_lookup).toBe(true);
    const found = await admin.post('/api/addresses', { building_number: '1', street: 'Crown Point Road', postcode: 'LS1 7BN' });
    expect(found.statusCode, found.body).toBe(201);
    expect(found.json().data).toMatchObject({ town: 'Leeds', latitude: 53.794566, longitude: -1.537904 });
    const unknown = await admin.post('/api/addresses', { line1: '1 Nowhere Lane', town: 'Leeds', postcode: 'LS1 9ZZ' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/postcode \(LS1 9ZZ: not a live UK postcode/);
    expect(io.seen).toEqual(['LS17BN', 'LS19ZZ']);
    await admin.put('/api/agencies/current', { postcode_lookup: false });
    expect((await admin.post('/api/addresses', { line1: '1 Nowhere Lane', town: 'Leeds', postcode: 'LS1 9ZZ' })).statusCode).toBe(201);
    expect(io.seen).toHaveLength(2);
  });

  it('a block of flats imported; a mistyped postcode is the row error; a formula is a warning and stored as typed', async () => {
    const rows = ['external_ref,line1,line2,town,postcode,branch'];
    for (let n = 1; n <= 12; n++) rows.push(`KW-${n},${n === 5 ? '=1+1' : 'Kirkgate Wharf'},Flat ${n},Leeds,LS2 7HY,Leeds City`);
    rows.push('KW-13,Kirkgate Wharf,Flat 13,Leeds,LS6 12AB,');
    const dry = await dryRun(admin, 'addresses', `${rows.join('\n')}\n`);
    expect(dry.counts).toEqual({ create: 12, update: 0, unchanged: 0, error: 1 });
    expect(dry.rows[12]).toMatchObject({ row: 14, outcome: 'error', errors: [{ column: 'postcode' }] });
    expect(JSON.stringify(dry.rows[12]!.errors)).toContain('not a UK postcode: LS6 12AB');
    expect(dry.rows[4]!.warnings).toEqual([expect.objectContaining({ column: 'line1' })]);
    await importCsv(admin, 'addresses', `${rows.slice(0, 13).join('\n')}\n`);
    const stored = await t.db.selectFrom('addresses').select(['line1', 'building_id', 'sub_building']).where('external_ref', 'like', 'KW-%').orderBy('id').execute();
    expect(stored).toHaveLength(12);
    expect(stored[4]!.line1).toBe('=1+1');
    expect(new Set(stored.filter((s) => s.line1 !== '=1+1').map((s) => s.building_id)).size).toBe(1);
    expect(stored[0]!.building_id).not.toBeNull();
  });

  it('an export re-imported into the same agency finds every row unchanged (generated agencies)', async () => {
    const text = fc.oneof(
      fc.constantFrom('Zoë Brontë', 'Seán O’Brien', '=1+1', '+44 trick', '@SUM(A1)', "'=quoted", 'Łódź Ślązak', '李雷', 'Ada; Lovelace', 'Comma, Name', 'Quote "Q"'),
      fc.string({ minLength: 1, maxLength: 12 }).map((s) => s.replace(/[\r\n\t]/g, ' ').trim()).filter((s) => s.length > 0),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ flat: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }), street: text, county: fc.option(text, { nil: null }) }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.record({ name: text, phone: fc.option(fc.constantFrom('0113 496 0000', '+44 113 496 0001'), { nil: null }) }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ name: text, contact: fc.option(text, { nil: null }) }), { minLength: 0, maxLength: 3 }),
        async (props, tenants, firms) => {
          run += 1;
          const agency = await createAgency(t.db, `Generated ${run}`);
          const client = (await userClient(t, { role: 'admin', agencyId: agency.id })).client;
          const csv = (rows: Array<Array<string | null>>) => rows.map((r) => r.map((c) => safeCell(c ?? '')).map((c) => (/[",;\n]/.test(c) || c !== c.trim() ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n') + '\n';
          const propRows = props.map((p, i) => [`P-${i}`, `${i + 1} ${p.street}`, p.flat === null ? null : `Flat ${p.flat}`, 'Leeds', p.county, 'LS6 3HN']);
          await importCsv(client, 'addresses', csv([['external_ref', 'line1', 'line2', 'town', 'county', 'postcode'], ...propRows]));
          await importCsv(client, 'tenants', csv([['external_ref', 'name', 'phone', 'property_ref'], ...tenants.map((x, i) => [`T-${i}`, x.name, x.phone, `P-${i % props.length}`])]));
          if (firms.length > 0) {
            await importCsv(client, 'contractors', csv([['external_ref', 'company_name', 'contact_name', 'trades', 'coverage', 'certificates'], ...firms.map((f, i) => [`C-${i}`, f.name, f.contact, 'plumbing', 'LS7;LS17;LS6', `gas_safe:${100 + i}:2027-05-31`])]));
          }
          const zip = unzip((await client.get('/api/agencies/current/export')).rawPayload);
          for (const [file, entity] of [['properties.csv', 'addresses'], ['tenants.csv', 'tenants'], ['tenant_properties.csv', 'tenants'], ['contractors.csv', 'contractors']] as const) {
            const dry = await dryRun(client, entity, zip.get(file)!, file);
            const n = entity === 'addresses' ? props.length : entity === 'tenants' ? tenants.length : firms.length;
            expect(dry.counts, `${file}: ${JSON.stringify(dry.rows.filter((r) => r.outcome !== 'unchanged'))}`).toEqual({ create: 0, update: 0, unchanged: n, error: 0 });
          }
          const certs = zip.get('certificates.csv')!.toString('utf8');
          expect(certs.split('\r\n')[0]).toBe('uuid,contractor_external_ref,contractor_company_name,cert_type,reference,issued_on,expires_on,certificate');
          expect(zip.get('tenant_properties.csv')!.toString('utf8').split('\r\n')[0]).toBe('external_ref,name,email,property_ref,property_postcode,property_line1,property_line2,created_at');
        },
      ),
      { numRuns: 6 },
    );
  });

  it('a leak never ranks a locksmith above a plumber; firms without the trade come last with the reason; districts sort naturally', async () => {
    const plumbing = await tradeId(t.db, 'plumbing');
    const locksmith = await tradeId(t.db, 'locksmith');
    const names = fc.constantFrom('=1+1', '+Plumb', 'Aire Valley Plumbing', '@Locks', 'Kirkstall Keys', 'Zed Ltd', '1st Call');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: names, trade: fc.constantFrom('plumbing', 'locksmith', 'both'), covers: fc.boolean() }), { minLength: 2, maxLength: 5 }),
        async (firms) => {
          run += 1;
          const agency = await createAgency(t.db, `Leak ${run}`);
          const branch = await createBranch(t.db, agency.id, 'Leeds');
          const client = (await userClient(t, { role: 'admin', agencyId: agency.id })).client;
          const kind = new Map<string, string>();
          for (const [i, f] of firms.entries()) {
            const trades = f.trade === 'both' ? [plumbing, locksmith] : [f.trade === 'plumbing' ? plumbing : locksmith];
            const res = await client.post('/api/contractors', { company_name: `${f.name} ${i}`, trade_ids: trades, coverage: f.covers ? ['LS17', 'LS7', 'LS6'] : ['LS17'] });
            expect(res.statusCode, res.body).toBe(201);
            expect(res.json().data.coverage).toEqual(f.covers ? ['LS6', 'LS7', 'LS17'] : ['LS17']);
            kind.set(res.json().data.uuid, f.trade);
          }
          const address = (await client.post('/api/addresses', { line1: '4 Victoria Road', town: 'Leeds', postcode: 'LS6 1DL' })).json().data;
          const leak = await insertJob(t.db, { agencyId: agency.id, branchId: branch.id, addressId: address.ID, tradeCode: 'plumbing', title: 'Leak under the sink' });
          const ranked = (await client.get(`/api/contractors/match?job_uuid=${leak.uuid}`)).json().data as Array<{ contractor_uuid: string; score: number; eligible: boolean; reasons: string[]; score_parts: Array<{ points: number }> }>;
          const firstLocksmith = ranked.findIndex((r) => kind.get(r.contractor_uuid) === 'locksmith');
          const lastPlumber = ranked.findLastIndex((r) => kind.get(r.contractor_uuid) !== 'locksmith');
          if (firstLocksmith >= 0 && lastPlumber >= 0) expect(firstLocksmith).toBeGreaterThan(lastPlumber);
          for (const r of ranked) {
            if (kind.get(r.contractor_uuid) === 'locksmith') {
              expect(r).toMatchObject({ eligible: false, score: 0 });
              expect(r.reasons[0]).toBe('Does not offer Plumbing: not eligible for this job');
            } else {
              expect(r.score).toBe(r.score_parts.reduce((n, p) => n + p.points, 0));
            }
          }
        },
      ),
      { numRuns: 5 },
    );
  });
});
