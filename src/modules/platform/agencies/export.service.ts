/**
 * The agency's export (docs/onboarding.md, "Export"; GDPR Art. 20 for the agency's own records):
 * a ZIP streamed to the client with one CSV per entity (branches, users, properties, tenants and
 * their properties, contractors, landlords (with their import reference, never bank details) and
 * their shares of properties, certificates, jobs, job notes, invoices) and, with `files`, the
 * job files under files/<job reference>/. Every file that has an import (properties, tenants and
 * tenant_properties, contractors, landlords) carries the import's columns and references, never
 * internal ids, so the export re-imported finds every row unchanged (docs/onboarding.md "Round
 * trip"). Every cell passes through safeCell
 * (src/lib/spreadsheet-safe.ts): text starting with = + - @ TAB or CR is prefixed with a quote
 * (OWASP "CSV injection"). No password hashes, tokens or secrets are exported.
 * Each CSV is read from the database a page of PAGE rows at a time (export.repository.ts)
 * and written into the ZIP as it is read, one file after the other, so the server holds a page,
 * not the agency (bench/README.md "Imports and exports of 100,000 rows").
 */
import { PassThrough, Readable } from 'node:stream';
import type { ZipArchive as Archive } from 'archiver';
import { stringify } from 'csv-stringify/sync';
import type { AppDeps } from '../../../app-deps.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { safeCell } from '../../../lib/spreadsheet-safe.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { acquireHeavySlot } from '../../../core/heavy-work.ts';
import * as repo from './agencies.repository.ts';
import * as exportRepo from './export.repository.ts';
import { partsOf } from '../../people/addresses/index.ts';

type Cell = string | number | boolean | Date | null | string[] | number[];

/** A cell as CSV text (dates ISO 8601, lists joined with `;`), made safe by safeCell. */
export function csvCell(v: Cell): string {
  if (v === null) return '';
  return safeCell(v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(';') : String(v));
}

/** Rows read from the database per query of the export. */
export const PAGE = 1000;

type Row = Record<string, Cell>;

/**
 * The rows of one export query, page after page: its ordering ids first (one array), then the rows
 * of PAGE ids at a time (export.repository.ts).
 */
export async function* pagesOf(query: exportRepo.ExportQuery<Row>, size = PAGE): AsyncGenerator<Row[]> {
  const ids = await query.keys();
  for (let i = 0; i < ids.length; i += size) {
    const rows = await query.page(ids.slice(i, i + size));
    if (rows.length > 0) yield rows;
  }
}

/**
 * One CSV file of rows of one shape, as a stream of its text in CRLF lines, a page at a time: the
 * header from the first row's keys, or `empty` when there is no row.
 */
export function csvStream(pages: AsyncIterable<Row[]>, empty: string[]): Readable {
  return Readable.from(
    (async function* () {
      let header: string[] | undefined;
      for await (const rows of pages) {
        const first = !header;
        header ??= Object.keys(rows[0]!);
        const lines = rows.map((r) => header!.map((h) => csvCell(r[h] ?? null)));
        yield Buffer.from(stringify(first ? [header, ...lines] : lines, { record_delimiter: '\r\n' }));
      }
      if (!header) yield Buffer.from(stringify([empty], { record_delimiter: '\r\n' }));
    })(),
    { objectMode: false },
  );
}

/**
 * The header of a file that has no rows, for the files an import reads back (an empty file still
 * names the import's columns); the others: `uuid`.
 */
const EMPTY_HEADERS: Record<string, string[]> = {
  'properties.csv': ['uuid', 'external_ref', 'line1', 'line2', 'line3', 'sub_building', 'building_name', 'building_number', 'street', 'locality', 'town', 'county', 'postcode', 'branch', 'is_communal', 'building_uuid', 'created_at'],
  'tenants.csv': ['uuid', 'external_ref', 'name', 'email', 'phone', 'mobile', 'preferred_contact', 'erased_at', 'created_at'],
  'tenant_properties.csv': ['external_ref', 'name', 'email', 'property_ref', 'property_postcode', 'property_line1', 'property_line2', 'created_at'],
  'contractors.csv': ['uuid', 'external_ref', 'company_name', 'contact_name', 'email', 'phone', 'active', 'trades', 'coverage', 'created_at'],
  'certificates.csv': ['uuid', 'contractor_external_ref', 'contractor_company_name', 'cert_type', 'reference', 'issued_on', 'expires_on', 'certificate'],
};

/** The queries of each CSV, over one agency. */
function entities(deps: AppDeps, agencyId: number): [string, exportRepo.ExportQuery<Row>][] {
  const db = deps.db;
  const properties = exportRepo.exportProperties(db, agencyId);
  return [
    ['branches.csv', exportRepo.exportBranches(db, agencyId)],
    ['users.csv', exportRepo.exportUsers(db, agencyId)],
    ['properties.csv', { keys: properties.keys, page: async (ids) => (await properties.page(ids)).map((r) => ({ ...r, ...partsOf(r) })) }],
    ['tenants.csv', exportRepo.exportTenants(db, agencyId)],
    ['tenant_properties.csv', exportRepo.exportTenantProperties(db, agencyId)],
    ['contractors.csv', exportRepo.exportContractors(db, agencyId)],
    ['landlords.csv', exportRepo.exportLandlords(db, agencyId)],
    ['landlord_properties.csv', exportRepo.exportLandlordProperties(db, agencyId)],
    ['certificates.csv', exportRepo.exportCertificates(db, agencyId)],
    ['jobs.csv', exportRepo.exportJobs(db, agencyId)],
    ['job_notes.csv', exportRepo.exportJobNotes(db, agencyId)],
    ['invoices.csv', exportRepo.exportInvoices(db, agencyId)],
  ];
}

/**
 * Appends one entry to the archive and resolves once the archive has written it whole (its `entry`
 * event), so the entries are read one at a time and a page query runs only when the ZIP wants more;
 * resolves at once when `out` closes (the client gone).
 * @throws the source stream's error (a failed page query)
 */
function appendEntry(archive: Archive, out: PassThrough, source: Readable, name: string, date: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      archive.off('entry', onEntry);
      out.off('close', onClose);
      source.off('error', settle);
      if (err) reject(err);
      else resolve();
    };
    const onEntry = (data: { name: string }) => data.name === name && settle();
    const onClose = () => settle();
    archive.on('entry', onEntry);
    out.once('close', onClose);
    source.once('error', settle);
    archive.append(source, { name, date });
  });
}

/**
 * GET /api/agencies/current/export: the ZIP stream of the caller's agency. Logged as `agency.export`.
 * Heavy work: it runs in one of the agency's slots (docs/operations.md "Fairness between agencies"),
 * held until the stream ends or the client goes; its progress is the files written of those to write.
 * @param files true to add the job files (documents and photos) under files/<job reference>/
 * @returns the file name and the stream (an error while writing cuts the stream, never a partial ZIP passed as whole)
 * @throws 403 for SysOps (no agency); 503 with `queue_position` when no slot came in CARETAKER_HEAVY_WAIT_S
 */
export async function exportAgency(deps: AppDeps, auth: AuthContext, actor: Actor, files: boolean): Promise<{ fileName: string; stream: PassThrough }> {
  const agencyId = writeAgency(auth);
  const agency = (await repo.findAgencyById(deps.db, agencyId))!;
  const slot = await acquireHeavySlot(deps, agencyId, 'export');
  const now = deps.clock.now();
  let ZipArchive;
  try {
    await recordActivity(deps.db, actor, now, { action: 'agency.export', resourceType: 'agency', resourceId: agencyId, agencyId, details: { files } });
    ({ ZipArchive } = await import('archiver'));
  } catch (err) {
    await slot.release();
    throw err;
  }
  const out = new PassThrough();
  const archive = new ZipArchive({ zlib: { level: 6 } });
  archive.on('error', (err: Error) => out.destroy(err));
  archive.pipe(out);
  // The client gone, the rest is not worth reading: the loop stops and the slot is free.
  out.once('close', () => void slot.release());
  const work = async () => {
    const csvs = entities(deps, agencyId);
    const stored = files ? await exportRepo.exportJobFiles(deps.db, agencyId) : [];
    const total = csvs.length + stored.length;
    let done = 0;
    for (const [name, query] of csvs) {
      if (out.destroyed) return;
      await appendEntry(archive, out, csvStream(pagesOf(query), EMPTY_HEADERS[name] ?? ['uuid']), name, now);
      await slot.progress(++done, total);
    }
    for (const f of stored) {
      if (out.destroyed) return;
      await appendEntry(archive, out, await deps.files.open(f.storage_key), `files/${f.reference}/${f.uuid}-${f.original_filename}`, now);
      await slot.progress(++done, total);
    }
    await archive.finalize();
  };
  work()
    .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
    .finally(() => void slot.release());
  const slug = agency.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agency';
  return { fileName: `${slug}-export-${now.toISOString().slice(0, 10)}.zip`, stream: out };
}
