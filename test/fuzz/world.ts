/**
 * The fuzz world: agency A (the callers) and agency B (the foreign records). Every record of
 * agency B carries FOREIGN_MARKER in its name, so a response to a caller of agency A that holds
 * the marker has leaked a foreign record. Pools of real ids and uuids (own and foreign) feed the
 * generators.
 */
import { newUuid } from '../../src/lib/crypto.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { insertJob, attachedRecordsWorld } from '../helpers/attached-records-world.ts';
import { mintBearer } from './tokens.ts';

export const FOREIGN_MARKER = 'Zforeignmarkerq';

export interface Actor {
  name: string;
  userId: number;
  agency: 'A' | 'B' | 'platform';
  token: string;
  tokenId: number;
}

export interface FuzzWorld {
  actors: Actor[];
  /** Integers and uuids that name real records: own (agency A) and foreign (agency B). */
  ids: { own: number[]; foreign: number[] };
  uuids: { own: string[]; foreign: string[] };
}

/** Builds the world on a fresh test app. */
export async function buildFuzzWorld(t: TestApp): Promise<FuzzWorld> {
  const w = await attachedRecordsWorld(t);
  const db = t.db;
  const now = new Date('2026-11-20T09:00:00Z');
  await db.updateTable('agencies').set({ name: `Agency B ${FOREIGN_MARKER}` }).where('id', '=', w.agencyB.id).execute();
  await db.updateTable('branches').set({ name: `B1 ${FOREIGN_MARKER}` }).where('id', '=', w.b1.id).execute();
  const trade = await db.insertInto('trades').values({ code: 'fz_b', name: `Trade ${FOREIGN_MARKER}`, agency_id: w.agencyB.id }).returning('id').executeTakeFirstOrThrow();
  const slot = await db.insertInto('job_time_ranges').values({ range_label: `Slot ${FOREIGN_MARKER}`, starts_at: '06:00', ends_at: '07:00', agency_id: w.agencyB.id, created_at: now, updated_at: now, retired_at: null }).returning('id').executeTakeFirstOrThrow();
  const address = await db.insertInto('addresses').values({ uuid: newUuid(), agency_id: w.agencyB.id, branch_id: w.b1.id, line1: `1 ${FOREIGN_MARKER} Road`, town: 'York', postcode: 'YO1 7HH', created_at: now, updated_at: now }).returning(['id', 'uuid']).executeTakeFirstOrThrow();
  const tenant = await db.insertInto('tenants').values({ uuid: newUuid(), agency_id: w.agencyB.id, name: `Tenant ${FOREIGN_MARKER}`, created_at: now, updated_at: now }).returning(['id', 'uuid']).executeTakeFirstOrThrow();
  const contractor = await db.insertInto('contractors').values({ uuid: newUuid(), agency_id: w.agencyB.id, company_name: `Contractor ${FOREIGN_MARKER}`, created_at: now, updated_at: now }).returning(['id', 'uuid']).executeTakeFirstOrThrow();
  const agentB = await createUser(db, { role: 'agent', agencyId: w.agencyB.id, branchId: w.b1.id, name: `Agent ${FOREIGN_MARKER}` });
  const jobB = await insertJob(db, { agencyId: w.agencyB.id, branchId: w.b1.id, title: `Job ${FOREIGN_MARKER}`, addressId: address.id, tenantId: tenant.id, contractorId: contractor.id, timeRangeId: slot.id });
  await db.insertInto('agency_counters').values([{ agency_id: w.agencyA.id, name: 'job_reference', value: 1000 }, { agency_id: w.agencyB.id, name: 'job_reference', value: 1000 }]).execute();

  const people: Array<[string, number, Actor['agency']]> = [
    ['sysops', w.sysops.user.id, 'platform'],
    ['adminA', w.adminA.user.id, 'A'],
    ['agentA1', w.agentA1.user.id, 'A'],
    ['tenantA', w.tenant.user.id, 'A'],
    ['contractorA', w.contractor.user.id, 'A'],
    ['adminB', w.adminB.user.id, 'B'],
  ];
  const actors: Actor[] = [];
  for (const [name, userId, agency] of people) actors.push({ name, userId, agency, ...(await mintBearer(t, userId)) });
  const contractorA = await db.selectFrom('contractors').select('uuid').where('id', '=', w.contractorId).executeTakeFirstOrThrow();
  return {
    actors,
    ids: { own: [1, 2, w.address.id, w.job.id], foreign: [trade.id, slot.id, address.id, w.agencyB.id] },
    uuids: {
      own: [w.job.uuid, w.address.uuid, w.a1.uuid, w.agentA1.user.uuid, contractorA.uuid],
      foreign: [jobB.uuid, w.jobB.uuid, address.uuid, tenant.uuid, contractor.uuid, agentB.uuid, w.b1.uuid],
    },
  };
}

/**
 * Makes every actor usable again: active account, a fresh bearer token when the old one was revoked.
 * @returns true when an account row had to change (the caller re-takes its fingerprint)
 */
export async function reviveActors(t: TestApp, world: FuzzWorld): Promise<boolean> {
  const ids = world.actors.map((a) => a.userId);
  const res = await t.db.updateTable('users').set({ status: 'active' }).where('id', 'in', ids).where('status', '!=', 'active').executeTakeFirst();
  const live = new Set((await t.db.selectFrom('auth_tokens').select('id').where('id', 'in', world.actors.map((a) => a.tokenId)).where('revoked_at', 'is', null).execute()).map((r) => r.id));
  for (const actor of world.actors) {
    if (!live.has(actor.tokenId)) Object.assign(actor, await mintBearer(t, actor.userId));
  }
  return Number(res.numUpdatedRows) > 0;
}
