/**
 * The subject-access report lists every table row that names the person (docs/gdpr.md
 * "Subject-access report"): the person-bearing tables are derived from the schema (a tenant id,
 * a user id, an e-mail, a phone number, a recipient or author key), each must be in SAR_COVERAGE,
 * and a tenant seeded across the tables finds each row in its section.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_COLUMNS, SAR_COVERAGE } from '../../../src/modules/platform/gdpr/sar-coverage.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { NAME, personWorld } from './person-world.ts';
import { unzip } from './unzip.ts';
import { pdfText } from '../../money/money/pdf-text.ts';

describe('subject-access report: every table that names the person', () => {
  let t: TestApp;
  let world: Awaited<ReturnType<typeof personWorld>>;
  beforeAll(async () => {
    t = await buildTestApp();
    world = await personWorld(t);
  });
  afterAll(async () => t?.close());

  it('every person-bearing table of the schema says which section covers it (or why it holds nothing about tenants)', async () => {
    const rows = await sql<{ table_name: string }>`
      select distinct c.table_name from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and (c.column_name = any(${[...PERSON_COLUMNS]}) or c.column_name like '%user_id')
        -- A partition (activity_log_p2026_12, ..._default) is covered by its partitioned parent
        -- (docs/operations.md "History partitions and retention").
        and not exists (select 1 from pg_class pc join pg_namespace n on n.oid = pc.relnamespace
                         where n.nspname = 'public' and pc.relname = c.table_name and pc.relispartition)
      order by 1`.execute(t.db);
    const tables = rows.rows.map((r) => r.table_name);
    expect(tables.length).toBeGreaterThan(40);
    expect(tables.filter((name) => !(name in SAR_COVERAGE))).toEqual([]);
    // No stale entry: each covered table exists.
    const all = new Set((await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(t.db)).rows.map((r) => r.table_name));
    expect(Object.keys(SAR_COVERAGE).filter((name) => !all.has(name))).toEqual([]);
  });

  it("the seeded row of every covered table is in that table's section", async () => {
    const res = await world.w.adminA.client.get(`/api/tenants/${world.tenant.uuid}/gdpr-report`);
    expect(res.statusCode).toBe(200);
    const report = res.json().data as Record<string, unknown>;
    const covered = Object.entries(SAR_COVERAGE).filter(([, c]) => typeof c === 'string') as Array<[string, string]>;
    const missing: string[] = [];
    // gdpr_exemptions: the next test applies one and finds it in `exemptions`.
    for (const [table, section] of covered.filter(([name]) => name !== 'gdpr_exemptions')) {
      const marker = world.rows[table];
      if (marker === undefined) {
        missing.push(`${table}: no seeded row`);
        continue;
      }
      if (!JSON.stringify(report[section] ?? null).includes(marker)) missing.push(`${table}: ${marker} not in ${section}`);
    }
    expect(missing).toEqual([]);
    // The internal note and the internal thread are in it: no blanket exclusion.
    expect(JSON.stringify(report.notes)).toContain(`Internal: ${NAME} was upset`);
    expect(JSON.stringify(report.conversations)).toContain(`${NAME} asked for mornings`);
    // Never a token or a password hash.
    expect(JSON.stringify(report)).not.toMatch(/token_hash|password_hash|device_token|nonce/);
  });

  it('an exemption withholds one item and is listed with its ground; the zip holds a JSON per section, the PDF and the files', async () => {
    const client = world.w.adminA.client;
    const bad = await client.post(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions`, { section: 'notes', record_ref: world.rows.job_notes, ground: 'no_such_ground', reason: 'x' });
    expect(bad.statusCode).toBe(400);
    const unknown = await client.post(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions`, { section: 'notes', record_ref: world.rows.job_files, ground: 'legal_privilege', reason: 'x' });
    expect(unknown.statusCode).toBe(404);
    const res = await client.post(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions`, {
      section: 'notes', record_ref: world.rows.job_notes, ground: 'legal_privilege', reason: "Summarises our solicitor's advice on the disrepair claim",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ section: 'notes', ground: 'legal_privilege', source: 'DPA 2018 Sch. 2 para. 19' });
    expect((await client.post(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions`, { section: 'notes', record_ref: world.rows.job_notes, ground: 'third_party_data', reason: 'y' })).statusCode).toBe(409);
    expect((await world.w.adminB.client.post(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions`, { section: 'notes', record_ref: world.rows.job_notes, ground: 'third_party_data', reason: 'y' })).statusCode).toBe(404);

    const report = (await client.get(`/api/tenants/${world.tenant.uuid}/gdpr-report`)).json().data;
    expect(report.notes).toContainEqual({ uuid: world.rows.job_notes, withheld: true, ground: 'legal_privilege', source: 'DPA 2018 Sch. 2 para. 19' });
    expect(JSON.stringify(report.notes)).not.toContain('was upset');
    expect(report.exemptions).toEqual([expect.objectContaining({ record_ref: world.rows.job_notes, ground_title: 'Legal professional privilege' })]);

    const zip = await client.get(`/api/tenants/${world.tenant.uuid}/gdpr-report?format=zip`);
    expect(zip.statusCode).toBe(200);
    const entries = unzip(zip.rawPayload);
    const names = [...entries.keys()];
    for (const section of ['subject', 'jobs', 'notes', 'files', 'messages', 'conversations', 'hazards', 'visits', 'sessions', 'preferences', 'exemptions']) {
      expect(names).toContain(`tables/${section}.json`);
    }
    expect(entries.get('report.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
    const file = names.find((n) => n.startsWith('files/'))!;
    expect(file).toBe(`files/${world.rows.job_files}-${NAME} letter.txt`);
    expect(entries.get(file)!.toString()).toBe(`letter to ${NAME}`);

    const pdf = await client.get(`/api/tenants/${world.tenant.uuid}/gdpr-report?format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Subject-access report');
    expect(text).toContain('Legal professional privilege');
    expect(text).toContain(`Leak reported by ${NAME}`);

    const exemption = report.exemptions[0].uuid;
    expect((await client.delete(`/api/tenants/${world.tenant.uuid}/gdpr-report/exemptions/${exemption}`)).statusCode).toBe(200);
    expect(JSON.stringify((await client.get(`/api/tenants/${world.tenant.uuid}/gdpr-report`)).json().data.notes)).toContain('was upset');
  });
});
