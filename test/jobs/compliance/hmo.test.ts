/**
 * The HMO flag of a property (docs/compliance.md "HMO"): set, it adds the HMO fire risk
 * assessment and licence items once; cleared, the items stay; another agency's property is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, standardWorld, type TestApp } from '../../helpers/app.ts';
import { insertAddress } from '../../helpers/factories.ts';

describe('HMO flag', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof standardWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await standardWorld(t);
  });
  afterAll(async () => t?.close());

  it('adds the HMO items once, keeps them when cleared, and stays inside the agency', async () => {
    const house = await insertAddress(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, line1: '4 Hyde Park Terrace', postcode: 'LS6 1BJ' });
    expect((await w.agentA1.client.post('/api/compliance/items', { address_uuid: house.uuid, type: 'gas_safety' })).statusCode).toBe(201);
    const url = `/api/compliance/properties/${house.uuid}/hmo`;
    const set = await w.agentA1.client.put(url, { hmo: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.is_hmo).toBe(true);
    // with the items every dwelling needs (docs/compliance.md "What a property needs")
    expect(set.json().data.items.map((i: { type_code: string }) => i.type_code).sort())
      .toEqual(['eicr', 'epc', 'gas_safety', 'hmo_fire_risk', 'hmo_licence', 'legionella', 'smoke_co_alarms']);
    expect((await w.agentA1.client.put(url, { hmo: true })).json().data.items).toHaveLength(7);
    const cleared = await w.agentA1.client.put(url, { hmo: false });
    expect(cleared.json().data).toMatchObject({ is_hmo: false });
    expect(cleared.json().data.items).toHaveLength(7);
    const row = await t.db.selectFrom('addresses').select('is_hmo').where('id', '=', house.id).executeTakeFirstOrThrow();
    expect(row.is_hmo).toBe(false);
    expect((await w.adminB.client.put(url, { hmo: true })).statusCode).toBe(404);
    expect((await w.agentA1.client.put(url, { hmo: 'yes' })).statusCode).toBe(400);
  });
});
