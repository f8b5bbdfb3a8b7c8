/**
 * The agency's export (docs/onboarding.md, "Export"; GDPR Art. 20 for the agency's own records):
 * a ZIP streamed to the client with one CSV per entity (branches, users, properties, tenants and
 * their properties, contractors, certificates, jobs, job notes, invoices) and, with `files`, the
 * job files under files/<job reference>/. Every cell passes through safeCell
 * (src/lib/spreadsheet-safe.ts): text starting with = + - @ TAB or CR is prefixed with a quote
 * (OWASP "CSV injection"). No password hashes, tokens or secrets are exported.
 */
import { PassThrough } from 'node:stream';
import { ZipArchive } from 'archiver';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import { writeAgency } from '../../http/agency-scope.ts';
import type { Actor, AuthContext } from '../../http/auth-context.ts';
import { safeCell } from '../../lib/spreadsheet-safe.ts';
import { recordActivity } from '../activity/index.ts';
import * as repo from './agencies.repository.ts';

type Cell = string | number | boolean | Date | null | string[] | number[];

/** A cell as CSV text (dates ISO 8601, lists joined with `;`), made safe by safeCell. */
export function csvCell(v: Cell): string {
  if (v === null) return '';
  return safeCell(v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(';') : String(v));
}

/** One CSV file's text from rows of one shape (header from the first row's keys, or `empty`). */
export function toCsv(rows: Record<string, Cell>[], empty: string[]): string {
  const header = rows[0] ? Object.keys(rows[0]) : empty;
  return stringify([header, ...rows.map((r) => header.map((h) => csvCell(r[h] ?? null)))], { record_delimiter: '\r\n' });
}

/** The queries of each CSV, over one agency. */
function entities(deps: AppDeps, agencyId: number): [string, () => Promise<Record<string, Cell>[]>][] {
  const db = deps.db;
  return [
    ['branches.csv', () => db.selectFrom('branches').select(['uuid', 'name', 'sharing_enabled', 'closed_at', 'created_at']).where('agency_id', '=', agencyId).orderBy('id').execute()],
    ['users.csv', () => db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id').leftJoin('branches as b', 'b.id', 'u.branch_id')
      .select(['u.uuid', 'u.name', 'u.email', 'r.code as role', 'b.name as branch', 'u.status', 'u.last_login_at', 'u.created_at']).where('u.agency_id', '=', agencyId).orderBy('u.id').execute()],
    ['properties.csv', () => db.selectFrom('addresses as a').leftJoin('branches as b', 'b.id', 'a.branch_id')
      .select(['a.uuid', 'a.external_ref', 'a.line1', 'a.line2', 'a.line3', 'a.town', 'a.county', 'a.postcode', 'b.name as branch', 'a.created_at']).where('a.agency_id', '=', agencyId).orderBy('a.id').execute()],
    ['tenants.csv', () => db.selectFrom('tenants').select(['uuid', 'external_ref', 'name', 'email', 'phone', 'mobile', 'preferred_contact', 'erased_at', 'created_at']).where('agency_id', '=', agencyId).orderBy('id').execute()],
    ['tenant_properties.csv', () => db.selectFrom('tenant_addresses as ta').innerJoin('tenants as t', 't.id', 'ta.tenant_id').innerJoin('addresses as a', 'a.id', 'ta.address_id')
      .select(['t.uuid as tenant_uuid', 'a.uuid as property_uuid', 'ta.created_at']).where('t.agency_id', '=', agencyId).orderBy('t.id').execute()],
    ['contractors.csv', () => db.selectFrom('contractors as c')
      .select(['c.uuid', 'c.external_ref', 'c.company_name', 'c.contact_name', 'c.email', 'c.phone', 'c.active',
        sql<string[]>`array(select t.code from contractor_trades ct join trades t on t.id = ct.trade_id where ct.contractor_id = c.id order by 1)`.as('trades'),
        sql<string[]>`array(select district from contractor_coverage where contractor_id = c.id order by 1)`.as('coverage'), 'c.created_at'])
      .where('c.agency_id', '=', agencyId).orderBy('c.id').execute()],
    ['certificates.csv', () => db.selectFrom('contractor_certifications as cc').innerJoin('contractors as c', 'c.id', 'cc.contractor_id')
      .select(['cc.uuid', 'c.uuid as contractor_uuid', 'cc.cert_type', 'cc.reference', sql<string>`cc.issued_on::text`.as('issued_on'), sql<string>`cc.expires_on::text`.as('expires_on')])
      .where('cc.agency_id', '=', agencyId).where('cc.deleted_at', 'is', null).orderBy('cc.id').execute()],
    ['jobs.csv', () => db.selectFrom('jobs as j').innerJoin('branches as b', 'b.id', 'j.branch_id').innerJoin('job_statuses as s', 's.id', 'j.status_id')
      .leftJoin('addresses as a', 'a.id', 'j.address_id').leftJoin('tenants as t', 't.id', 'j.tenant_id').leftJoin('contractors as c', 'c.id', 'j.contractor_id').leftJoin('trades as tr', 'tr.id', 'j.trade_id')
      .select(['j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 's.name as status', 'b.name as branch', 'a.uuid as property_uuid', 't.uuid as tenant_uuid',
        'c.uuid as contractor_uuid', 'tr.code as trade', 'j.estimated_cost_pence', 'j.agreed_cost_pence', 'j.scheduled_for', 'j.completed_at', 'j.closed_at', 'j.created_at'])
      .where('b.agency_id', '=', agencyId).where('j.deleted_at', 'is', null).orderBy('j.id').execute()],
    ['job_notes.csv', () => db.selectFrom('job_notes as n').innerJoin('jobs as j', 'j.id', 'n.job_id').innerJoin('branches as b', 'b.id', 'j.branch_id')
      .select(['n.uuid', 'j.reference as job_reference', 'n.visibility', 'n.body', 'n.created_at']).where('b.agency_id', '=', agencyId).orderBy('n.id').execute()],
    ['invoices.csv', () => db.selectFrom('invoices as i').innerJoin('jobs as j', 'j.id', 'i.job_id').innerJoin('contractors as c', 'c.id', 'i.contractor_id')
      .select(['i.uuid', 'i.kind', 'i.number', 'i.status', 'j.reference as job_reference', 'c.uuid as contractor_uuid', sql<string>`i.issue_date::text`.as('issue_date'),
        sql<string>`i.due_date::text`.as('due_date'), 'i.net_pence', 'i.vat_pence', 'i.gross_pence', 'i.paid_pence'])
      .where('i.agency_id', '=', agencyId).orderBy('i.id').execute()],
  ];
}

/**
 * GET /api/agencies/current/export: the ZIP stream of the caller's agency. Logged as `agency.export`.
 * @param files true to add the job files (documents and photos) under files/<job reference>/
 * @returns the file name and the stream (an error while writing cuts the stream, never a partial ZIP passed as whole)
 * @throws 403 for SysOps (no agency)
 */
export async function exportAgency(deps: AppDeps, auth: AuthContext, actor: Actor, files: boolean): Promise<{ fileName: string; stream: PassThrough }> {
  const agencyId = writeAgency(auth);
  const agency = (await repo.findAgencyById(deps.db, agencyId))!;
  const now = deps.clock.now();
  await recordActivity(deps.db, actor, now, { action: 'agency.export', resourceType: 'agency', resourceId: agencyId, agencyId, details: { files } });
  const out = new PassThrough();
  const archive = new ZipArchive({ zlib: { level: 6 } });
  archive.on('error', (err: Error) => out.destroy(err));
  archive.pipe(out);
  const work = async () => {
    for (const [name, load] of entities(deps, agencyId)) {
      archive.append(toCsv(await load(), ['uuid']), { name, date: now });
    }
    if (files) {
      const stored = await deps.db.selectFrom('job_files as f').innerJoin('jobs as j', 'j.id', 'f.job_id')
        .select(['f.storage_key', 'f.original_filename', 'f.uuid', 'j.reference']).where('f.agency_id', '=', agencyId).where('f.deleted_at', 'is', null).orderBy('f.id').execute();
      for (const f of stored) {
        archive.append(await deps.files.open(f.storage_key), { name: `files/${f.reference}/${f.uuid}-${f.original_filename}`, date: now });
      }
    }
    await archive.finalize();
  };
  work().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  const slug = agency.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agency';
  return { fileName: `${slug}-export-${now.toISOString().slice(0, 10)}.zip`, stream: out };
}
