/**
 * Erasure that reaches every copy, and the retention schedule (docs/gdpr.md "Erasure",
 * "Retention"): after an erasure the tenant's name, e-mails and numbers are found in no text or
 * JSON column of any table, in no stored file and in no e-mail of the mail folder, except where a
 * stated retention keeps them (the written summary of a hazard, restricted until its retention
 * ends; the STOP opt-out of the number); the periodic task releases what was kept once the period
 * has passed.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodemailerMailer } from '../../../src/modules/messaging/mail/index.ts';
import { applyRetention } from '../../../src/modules/platform/gdpr/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { EMAIL, LOGIN_EMAIL, MOBILE_E164, NAME, PHONE, occurrences, personWorld } from './person-world.ts';

/** Stored files whose bytes contain `needle`. */
async function filesHolding(t: TestApp, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for await (const o of t.deps.files.list()) if ((await t.deps.files.get(o.key)).toString('utf8').toLowerCase().includes(needle.toLowerCase())) hits.push(o.key);
  return hits;
}

/** E-mails of the mail folder whose text contains `needle`. */
async function mailHolding(t: TestApp, needle: string): Promise<string[]> {
  const dir = (t.deps.mailer as NodemailerMailer).dir;
  const names = (await readdir(dir)).filter((n) => n.endsWith('.eml'));
  const hits: string[] = [];
  for (const n of names) if ((await readFile(path.join(dir, n), 'utf8')).toLowerCase().includes(needle.toLowerCase())) hits.push(n);
  return hits;
}

describe('erasure reaches every copy; retention keeps and then releases', () => {
  let t: TestApp;
  let world: Awaited<ReturnType<typeof personWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    world = await personWorld(t);
  });
  afterAll(async () => t?.close());

  it('the retention schedule: lawful defaults with their source; a statutory minimum cannot be shortened', async () => {
    const client = world.w.adminA.client;
    const res = await client.get('/api/gdpr/retention');
    expect(res.statusCode).toBe(200);
    const byKind = Object.fromEntries(res.json().data.map((e: { record_kind: string }) => [e.record_kind, e]));
    expect(byKind.vat_records).toMatchObject({ months: 72, statutory: true, source: expect.stringContaining('VAT Notice 700/21 para. 1.2') });
    expect(byKind.aml_records).toMatchObject({ months: 60, statutory: true, source: expect.stringContaining('reg. 40') });
    expect(byKind.hazard_records).toMatchObject({ months: 72, statutory: false, set_by_agency: false });
    const short = await client.put('/api/gdpr/retention', { periods: [{ record_kind: 'vat_records', months: 60 }] });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toContain('vat_records must be kept at least 72 months');
    expect((await client.put('/api/gdpr/retention', { periods: [{ record_kind: 'nothing', months: 1 }] })).statusCode).toBe(400);
    expect((await world.w.agentA1.client.get('/api/gdpr/retention')).statusCode).toBe(403);
    const set = await client.put('/api/gdpr/retention', { periods: [{ record_kind: 'vat_records', months: 84 }, { record_kind: 'message_log', months: 12 }] });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.find((e: { record_kind: string }) => e.record_kind === 'message_log')).toMatchObject({ months: 12, set_by_agency: true });
    expect((await world.w.adminB.client.get('/api/gdpr/retention')).json().data.find((e: { record_kind: string }) => e.record_kind === 'message_log').months).toBe(24);
  });

  it('after the erasure the name is nowhere but the restricted hazard summary; the answer says so', async () => {
    expect((await occurrences(t, NAME)).length).toBeGreaterThan(15);
    expect(await filesHolding(t, NAME)).toHaveLength(1);
    expect(await mailHolding(t, NAME)).toHaveLength(1);

    const res = await world.w.adminA.client.post(`/api/tenants/${world.tenant.uuid}/erase`, {});
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.retained).toEqual([{
      record_kind: 'hazard_records', table: 'job_hazards.summary_text', records: 1, retained_until: '2032-11-21', ground: expect.stringContaining('Limitation Act 1980 s. 5'),
    }]);
    expect(d.copies).toMatchObject({ mail_files_removed: 1, files_removed: 1, backups: expect.stringContaining('Backups') });
    expect(d.other_scrubbed).toBeGreaterThan(5);

    expect(await occurrences(t, NAME)).toEqual(['job_hazards.summary_text']);
    for (const needle of [EMAIL, LOGIN_EMAIL, PHONE]) expect(await occurrences(t, needle)).toEqual([]);
    // The STOP stays so that the number is never texted again (docs/gdpr.md "Erasure").
    expect(await occurrences(t, MOBILE_E164)).toEqual(['sms_opt_outs.phone']);
    expect(await filesHolding(t, NAME)).toEqual([]);
    expect(await mailHolding(t, NAME)).toEqual([]);
    expect(await mailHolding(t, EMAIL)).toEqual([]);
    const file = await t.db.selectFrom('job_files').select(['original_filename', 'description', 'deleted_at']).where('uuid', '=', world.rows.job_files!).executeTakeFirstOrThrow();
    expect(file).toEqual({ original_filename: 'erased.txt', description: null, deleted_at: expect.any(Date) });
    const kept = await t.db.selectFrom('gdpr_retained').select(['record_kind', 'table_name', sql<string>`retained_until::text`.as('retained_until'), 'released_at']).execute();
    expect(kept).toEqual([{ record_kind: 'hazard_records', table_name: 'job_hazards', retained_until: '2032-11-21', released_at: null }]);
  });

  it('the periodic task keeps the summary until its retention ends, then releases it; old message log and sessions go', async () => {
    expect(await applyRetention(t.deps)).toMatchObject({ released: 0 });
    expect(await occurrences(t, NAME)).toEqual(['job_hazards.summary_text']);
    t.clock.set(new Date('2032-11-21T03:00:00Z'));
    const run = await applyRetention(t.deps);
    expect(run.released).toBe(1);
    expect(run.message_log_deleted).toBeGreaterThan(0);
    expect(run.sessions_deleted).toBeGreaterThan(0);
    expect(await occurrences(t, NAME)).toEqual([]);
    const hazard = await t.db.selectFrom('job_hazards').select(['summary_text', 'summary_sent_at']).where('uuid', '=', world.rows.job_hazards!).executeTakeFirstOrThrow();
    expect(hazard).toEqual({ summary_text: null, summary_sent_at: expect.any(Date) });
    expect(await applyRetention(t.deps)).toMatchObject({ released: 0 });
  });
});
