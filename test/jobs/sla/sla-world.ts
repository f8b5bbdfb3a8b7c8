/**
 * A world for the SLA tests: standardWorld plus a contractor of agency A and helpers that drive
 * jobs through the real endpoints (so history rows and clocks are written as in production).
 */
import { expect } from 'vitest';
import { newUuid } from '../../../src/lib/crypto.ts';
import { standardWorld, type Client, type TestApp } from '../../helpers/app.ts';

export const RULES = '/api/agents/branch-sla-response-times';

/** Builds the world. */
export async function slaWorld(t: TestApp) {
  const w = await standardWorld(t);
  const now = new Date('2026-11-01T00:00:00Z');
  const contractor = await t.db
    .insertInto('contractors')
    .values({ uuid: newUuid(), agency_id: w.agencyA.id, company_name: 'Fletcher Plumbing', created_at: now, updated_at: now })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  return { ...w, contractor };
}

/** Creates a rule through the API; returns its uuid. */
export async function createRule(client: Client, body: Record<string, unknown>): Promise<string> {
  const res = await client.post(RULES, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.uuid;
}

/** Reports a job through the API; returns its uuid. */
export async function createJob(client: Client, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/api/jobs/manage', { title: 'Boiler not firing', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.uuid;
}

/** Moves a job through the API. */
export async function move(client: Client, uuid: string, to: number) {
  const res = await client.post(`/api/jobs/${uuid}/transitions`, { to_status_id: to });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The job's clocks through the API. */
export async function clocksOf(client: Client, uuid: string) {
  const res = await client.get(`/api/jobs/${uuid}/sla`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, any>>;
}

/** Number of outbox events with this name. */
export async function eventCount(t: TestApp, name: string): Promise<number> {
  const r = await t.db.selectFrom('outbox').select(t.db.fn.countAll<number>().as('n')).where('name', '=', name).executeTakeFirstOrThrow();
  return Number(r.n);
}
