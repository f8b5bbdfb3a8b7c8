/**
 * Imports (docs/onboarding.md, "Import"): an administrator uploads a CSV or XLSX file of
 * properties, tenants or contractors; the dry run checks every row and records its outcome
 * (create, update, unchanged, or error with the column and the reason) and nothing else; the
 * commit writes the rows. A file with a bad row commits nothing unless it was uploaded with
 * `skip_bad_rows` (then the bad rows are left out). Rows are written in chunks of CHUNK, each
 * chunk in one transaction with the import's cursor, so a commit stopped half way (a restart)
 * resumes after the last chunk written. Files of more than INLINE_ROWS rows to write are committed
 * by the periodic task `imports.commit` (the queue) and followed with GET /api/imports/{uuid}.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type { AppDeps } from '../../../app-deps.ts';
import { readAgency, writeAgency } from '../../../core/agency-scope.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, notFound } from '../../../core/errors.ts';
import { toIso, toIsoOrNull } from '../../../lib/clock.ts';
import { startsFormula } from '../../../lib/spreadsheet-safe.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { safeRow } from '../../../lib/spreadsheet-safe.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { withHeavyPermit, withHeavyRoom } from '../../../core/heavy-work.ts';
import {
  AddressIndex, addressOutcome, applyAddresses, applyContractor, applyTenant, COLUMNS, ContractorIndex, contractorOutcome,
  parseAddress, parseContractor, parseTenant, TenantIndex, tenantOutcome, type AddressValue, type ContractorValue, type Entity,
  applyLandlord, keptColumns, LandlordIndex, landlordOutcome, parseLandlord, type LandlordValue,
  type RowError, type TenantValue, withoutKept,
} from './entities.ts';
import {
  advanceImportCursor, claimCheckedImport, claimPendingImport, findImport, importQueuePosition, insertImport, insertImportRows,
  listImportRows, listPendingImports, listRowsAfter, markImportCommitted, markImportFailed,
} from './imports.repository.ts';
import { readSheet, SheetError, SHEET_LIMITS } from './spreadsheet.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';
import { forEachSliced } from '../../../lib/concurrency.ts';

type Caller = Actor & { auth: AuthContext };
type Outcome = 'create' | 'update' | 'unchanged' | 'error';

/** Rows written per transaction. */
export const CHUNK = 1000;
/** Files with more rows to write than this are committed on the queue. */
export const INLINE_ROWS = 2000;
/** At most this many data rows per file (the reader stops at the next one: SHEET_LIMITS in spreadsheet.ts). */
export const MAX_ROWS = SHEET_LIMITS.rows;

interface Checked {
  row: number;
  outcome: Outcome;
  key: string | null;
  value: unknown;
  errors: RowError[];
  /** dry run only: cells kept as typed that a spreadsheet would run as a formula */
  warnings?: RowError[];
}

/**
 * The cells of a row a spreadsheet would run as a formula (src/lib/spreadsheet-safe.ts): stored as
 * typed, quoted only when an export writes them; the dry run names them (docs/onboarding.md "Round trip").
 */
function formulaWarnings(data: Record<string, string>): RowError[] {
  return Object.entries(data)
    .filter(([, v]) => startsFormula(v))
    .map(([column, v]) => ({ column, reason: `starts with ${JSON.stringify(v[0])}: a spreadsheet would run it as a formula; stored as typed, and quoted when exported (${v.slice(0, 40)})` }));
}

/** Rows checked between two turns of the event loop in a dry run (checkRows). */
const CHECK_SLICE = 500;

/**
 * Checks every row of a sheet against the agency's records: the dry run. `kept` are the optional
 * columns the file lacks (keptColumns): every entity's row value is taken without their fields
 * before it is compared and stored, so the commit keeps those fields as stored.
 */

async function checkRows(db: DbOrTrx, agencyId: number, entity: Entity, rows: { row: number; data: Record<string, string> }[], kept: readonly string[]): Promise<Checked[]> {
  const seen = new Map<string, number>();
  const checkOne = <V extends object>(row: number, data: Record<string, string>, parse: (d: Record<string, string>) => { value?: V; key?: string; errors: RowError[] }, outcome: (v: V) => Outcome): Checked => {
    const parsed = parse(data);
    const warnings = formulaWarnings(data);
    if (parsed.errors.length > 0 || !parsed.key || !parsed.value) return { row, outcome: 'error', key: null, value: null, errors: parsed.errors, warnings };
    const first = seen.get(parsed.key);
    if (first !== undefined) return { row, outcome: 'error', key: parsed.key, value: null, errors: [{ column: 'external_ref', reason: `duplicate of row ${first} (${parsed.key.replace(/^[a-z]+:/, '')})` }], warnings };
    seen.set(parsed.key, row);
    const value = withoutKept(entity, parsed.value, kept);
    return { row, outcome: outcome(value), key: parsed.key, value, errors: [], warnings };
  };
  const checkAll = async <V extends object>(parse: (d: Record<string, string>) => { value?: V; key?: string; errors: RowError[] }, outcome: (v: V) => Outcome): Promise<Checked[]> => {
    const checked: Checked[] = [];
    // A 50,000-row file takes seconds to check: the thread is given back between slices, and the
    // other requests of the process wait for none of it.
    await forEachSliced(rows, ({ row, data }) => checked.push(checkOne(row, data, parse, outcome)), CHECK_SLICE);
    return checked;
  };
  if (entity === 'addresses') {
    const idx = await AddressIndex.load(db, agencyId);
    return checkAll((d) => parseAddress(d, idx), (v) => addressOutcome(v, idx));
  }
  if (entity === 'tenants') {
    const idx = await TenantIndex.load(db, agencyId);
    return checkAll((d) => parseTenant(d, idx), (v) => tenantOutcome(v, idx));
  }
  if (entity === 'landlords') {
    const idx = await LandlordIndex.load(db, agencyId);
    return checkAll((d) => parseLandlord(d, idx), (v) => landlordOutcome(v, idx));
  }
  const idx = await ContractorIndex.load(db, agencyId);
  return checkAll((d) => parseContractor(d, idx), (v) => contractorOutcome(v, idx));
}

type ImportRow = NonNullable<Awaited<ReturnType<typeof findImport>>>;

/** Wire shape of an import (summary and progress); `queuePosition` for a queued one. */
function toImportDto(r: ImportRow, queuePosition: number | null = null) {
  return {
    uuid: r.uuid,
    entity: r.entity,
    file_name: r.file_name,
    status: r.status,
    skip_bad_rows: r.skip_bad_rows,
    encoding: r.encoding,
    delimiter: r.delimiter,
    rows_total: r.rows_total,
    rows_done: r.rows_done,
    queue_position: r.status === 'queued' ? queuePosition : null,
    error_count: r.error_count,
    counts: { create: 0, update: 0, unchanged: 0, error: 0, ...r.counts },
    failure: r.failure,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    committed_at: toIsoOrNull(r.committed_at),
  };
}
export type ImportDto = ReturnType<typeof toImportDto>;

/** The wire shape with the queue position read when the import waits (docs/operations.md "Fairness between agencies"). */
async function importDto(db: DbOrTrx, r: ImportRow): Promise<ImportDto> {
  return toImportDto(r, r.status === 'queued' ? await importQueuePosition(db, r.agency_id, r.id) : null);
}


/** The rows of an import with their outcome (errors only with `errorsOnly`), in file order. */
async function importRows(db: DbOrTrx, importId: number, errorsOnly: boolean) {
  const rows = await listImportRows(db, importId, errorsOnly);
  return rows.map((r) => ({ row: r.row_number, outcome: r.outcome, errors: r.errors }));
}

/**
 * POST /api/imports: reads the file and runs the dry run; nothing but the import's record is written.
 * @param entity addresses, tenants, contractors or landlords
 * @returns the import (status `checked`), `kept_columns` (the optional columns the file lacks, whose
 *   fields an update keeps as stored) and every row's outcome
 * @throws 400 unreadable file, no header row, a required column missing, or the first limit of
 *   SHEET_LIMITS crossed (rows, cells, unpacked bytes, compression ratio: the reader stops there,
 *   docs/security.md "Imports: counted as they are read"); 403 SysOps
 */
export async function createImport(deps: AppDeps, caller: Caller, input: { entity: Entity; skipBadRows: boolean; fileName: string; bytes: Buffer }) {
  const agencyId = writeAgency(caller.auth);
  let sheet;
  try {
    sheet = await readSheet(input.bytes);
  } catch (err) {
    if (err instanceof SheetError) throw new AppError('bad_request', err.message);
    throw err;
  }
  const missing = COLUMNS[input.entity].filter((c) => c.required && !sheet.headers.includes(c.name)).map((c) => c.name);
  if (missing.length > 0) throw new AppError('bad_request', `The file lacks the column(s) ${missing.join(', ')} (see GET /api/imports/templates/${input.entity}.csv)`);
  const kept = keptColumns(input.entity, sheet.headers);
  const checked = await checkRows(deps.db, agencyId, input.entity, sheet.rows, kept);
  const counts: Record<Outcome, number> = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const c of checked) counts[c.outcome] += 1;
  const now = deps.clock.now();
  const uuid = newUuid();
  await deps.db.transaction().execute(async (trx) => {
    const importId = await insertImport(trx, {
        uuid, agency_id: agencyId, entity: input.entity, file_name: cutGraphemes(input.fileName, 200),
        file_sha256: createHash('sha256').update(input.bytes).digest('hex'), status: 'checked', skip_bad_rows: input.skipBadRows,
        rows_total: checked.length, error_count: counts.error, counts: JSON.stringify(counts), encoding: sheet.encoding, delimiter: sheet.delimiter,
        failure: null, created_by: caller.auth.userId, created_at: now, updated_at: now, committed_at: null,
    });
    for (let i = 0; i < checked.length; i += CHUNK) {
      await insertImportRows(trx, importId, checked.slice(i, i + CHUNK));
    }
    await recordActivity(trx, caller, now, { action: 'import.check', resourceType: 'import', resourceId: importId, agencyId, details: { entity: input.entity, file: input.fileName, ...counts } });
  });
  const imp = (await findImport(deps.db, uuid, agencyId))!;
  const rows: Array<{ row: number; outcome: Outcome; errors: RowError[]; warnings?: RowError[] }> = [];
  let warningCount = 0;
  await forEachSliced(checked, (c) => {
    const warned = (c.warnings ?? []).length > 0;
    if (warned) warningCount += 1;
    rows.push({ row: c.row, outcome: c.outcome, errors: c.errors, ...(warned ? { warnings: c.warnings } : {}) });
  }, CHECK_SLICE);
  return { ...toImportDto(imp), kept_columns: kept, warning_count: warningCount, rows };
}

/**
 * GET /api/imports/{uuid}: the import's progress (rows done, rows total, errors) and its error rows.
 * @throws 404 (another agency's import too)
 */
export async function getImport(deps: AppDeps, auth: AuthContext, uuid: string) {
  const imp = await findImport(deps.db, uuid, readAgency(auth));
  if (!imp) throw notFound('Import');
  return { ...(await importDto(deps.db, imp)), rows: await importRows(deps.db, imp.id, true) };
}

/** The rows still to write after the cursor, up to CHUNK, in file order. */
function nextChunk(db: DbOrTrx, imp: ImportRow) {
  return listRowsAfter(db, imp.id, imp.cursor, CHUNK);
}

/**
 * Writes the rows of an import after its cursor, a chunk per transaction, until none is left;
 * marks it committed (`maxChunks`: stop after that many chunks). Safe to run again after a stop: it starts after the last chunk written and
 * the writes are keyed, so a row written twice is found unchanged.
 */
export async function runCommit(deps: AppDeps, uuid: string, options: { maxChunks?: number } = {}): Promise<void> {
  let imp = (await findImport(deps.db, uuid, null))!;
  const entity = imp.entity as Entity;
  const index =
    entity === 'addresses' ? await AddressIndex.load(deps.db, imp.agency_id)
    : entity === 'tenants' ? await TenantIndex.load(deps.db, imp.agency_id)
    : entity === 'landlords' ? await LandlordIndex.load(deps.db, imp.agency_id)
    : await ContractorIndex.load(deps.db, imp.agency_id);
  for (let chunks = 0; ; chunks++) {
    // A bounded run (maxChunks) stops as a killed worker would: the rest waits for resumeImports.
    if (options.maxChunks !== undefined && chunks >= options.maxChunks) return;
    const chunk = await nextChunk(deps.db, imp);
    if (chunk.length === 0) break;
    const now = deps.clock.now();
    const writes = chunk.filter((r) => r.outcome === 'create' || r.outcome === 'update').map((r) => r.data as unknown);
    const last = chunk.at(-1)!.row_number;
    await deps.db.transaction().execute(async (trx) => {
      if (entity === 'addresses') await applyAddresses(trx, index as AddressIndex, writes as AddressValue[], now);
      else if (entity === 'tenants') for (const v of writes) await applyTenant(trx, index as TenantIndex, v as TenantValue, now);
      else if (entity === 'landlords') for (const v of writes) await applyLandlord(trx, index as LandlordIndex, v as LandlordValue, now);
      else for (const v of writes) await applyContractor(trx, index as ContractorIndex, v as ContractorValue, now);
      await advanceImportCursor(trx, imp.id, last, chunk.length, now);
    });
    imp = (await findImport(deps.db, uuid, null))!;
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await markImportCommitted(trx, imp.id, now);
    await recordActivity(trx, { auth: null, ip: 'worker' }, now, {
      action: 'import.commit', resourceType: 'import', resourceId: imp.id, agencyId: imp.agency_id, userId: imp.created_by, userName: 'import',
      details: { entity, file: imp.file_name, ...imp.counts },
    });
  });
}

/**
 * POST /api/imports/{uuid}/commit: writes a checked import. Up to INLINE_ROWS rows to write are
 * written before the answer (status `committed`); more go to the queue (status `queued`, 202), and so
 * does any import of an agency already running CARETAKER_AGENCY_HEAVY_MAX commits (its answer gives
 * its `queue_position`).
 * @throws 404, 409 (not in status `checked`, or rows with errors without skip_bad_rows)
 */
export async function commitImport(deps: AppDeps, caller: Caller, uuid: string): Promise<{ import: ImportDto; queued: boolean }> {
  const imp = await findImport(deps.db, uuid, writeAgency(caller.auth));
  if (!imp) throw notFound('Import');
  if (imp.status !== 'checked') throw conflict(`Import is ${imp.status}, not checked`);
  if (imp.error_count > 0 && !imp.skip_bad_rows) {
    throw conflict(`The file has ${imp.error_count} row(s) with errors: nothing was imported. Correct them and upload the file again, or upload it with skip_bad_rows=true`);
  }
  const now = deps.clock.now();
  const toWrite = (imp.counts.create ?? 0) + (imp.counts.update ?? 0);
  // The agency's slot is counted and taken under its heavy-work lock, so two instances never both
  // take its last one (src/core/heavy-work.ts).
  const claim = await withHeavyRoom(deps, imp.agency_id, async (trx, room) => {
    const queued = toWrite > INLINE_ROWS || !room;
    return { queued, claimed: await claimCheckedImport(trx, imp.id, queued ? 'queued' : 'committing', now) };
  });
  if (!claim.claimed) throw conflict('Import is already being committed');
  const queued = claim.queued;
  await recordActivity(deps.db, caller, now, { action: 'import.commit_request', resourceType: 'import', resourceId: imp.id, agencyId: imp.agency_id, details: { queued } });
  if (!queued) await withHeavyPermit(deps, () => runCommit(deps, uuid));
  return { import: await importDto(deps.db, (await findImport(deps.db, uuid, null))!), queued };
}

/** How long a commit may go without writing a chunk before another run takes it over (seconds). */
export const STALE_S = 120;

/**
 * The periodic task's work: commits every queued import, and resumes every import whose commit
 * stopped (no chunk written for STALE_S seconds, e.g. after a restart). A queued import of an agency
 * already running CARETAKER_AGENCY_HEAVY_MAX commits waits for a later run.
 * @returns how many imports it ran
 */
export async function resumeImports(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const stale = new Date(now.getTime() - STALE_S * 1000);
  const pending = await listPendingImports(deps.db, stale);
  let ran = 0;
  for (const p of pending) {
    // Claim it (moves updated_at) under the agency's heavy-work lock when it has a free slot, so a
    // second runner passes it by and no other instance takes the same slot.
    if (!(await withHeavyRoom(deps, p.agency_id, async (trx, room) => room && (await claimPendingImport(trx, p.id, stale, now))))) continue;
    try {
      await withHeavyPermit(deps, () => runCommit(deps, p.uuid));
    } catch (err) {
      await markImportFailed(deps.db, p.id, cutGraphemes((err as Error).message, 500), deps.clock.now());
    }
    ran += 1;
  }
  return ran;
}

/**
 * GET /api/imports/templates/{entity}.csv: the header row and one example row, CRLF lines, cells
 * through safeRow (src/lib/spreadsheet-safe.ts); a cell holding `;` is quoted so that the
 * importer's delimiter detection still reads the file as comma-separated.
 */
export function templateCsv(entity: Entity): string {
  const cols = COLUMNS[entity];
  return stringify([safeRow(cols.map((c) => c.name)), safeRow(cols.map((c) => c.example))], { record_delimiter: '\r\n', quoted_match: /;/ });
}
