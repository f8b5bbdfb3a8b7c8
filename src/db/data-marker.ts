/**
 * The embedded database's marker (docs/operations.md "Restore"): `CARETAKER_DATA_DIR/caretaker-database.json`,
 * written when the embedded database is first created or opened, and by `caretaker restore`. It says
 * a database lives in `CARETAKER_DATA_DIR/pglite`; a start that finds the marker but no database there
 * (a folder moved away, an interrupted restore) refuses instead of quietly creating an empty one.
 * Deleting the marker is the way to start afresh on purpose.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The marker's file name inside CARETAKER_DATA_DIR. */
export const DATABASE_MARKER = 'caretaker-database.json';

/** What the marker records. */
interface Marker {
  /** When the embedded database was created, opened first with a marker, or restored (ISO). */
  at: string;
  how: 'created' | 'opened' | 'restored';
  /** The backup a restore came from. */
  from?: string;
}

/** Whether `dataDir/pglite` holds a PostgreSQL data folder (its PG_VERSION file). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));
}

/**
 * Writes the marker (replacing one there).
 * @param dataDir CARETAKER_DATA_DIR
 */
export function writeDatabaseMarker(dataDir: string, marker: Marker): void {
  writeFileSync(path.join(dataDir, DATABASE_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/**
 * What is wrong when the marker says a database lives in `dataDir` but none is there (the caller
 * refuses to start with it: src/main/runtime.ts).
 * @param dataDir CARETAKER_DATA_DIR
 * @returns the problem and its fix, or undefined when the database is there or no marker expects one
 */
export function missingDatabase(dataDir: string): { problem: string; fix: string } | undefined {
  const file = path.join(dataDir, DATABASE_MARKER);
  if (!existsSync(file) || embeddedDatabaseExists(dataDir)) return undefined;
  let since = '';
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<Marker>;
    if (m.at) since = ` (${m.how ?? 'created'} ${m.at}${m.from ? ` from ${m.from}` : ''})`;
  } catch {
    // An unreadable marker still says a database was expected.
  }
  return {
    problem: `${path.join(dataDir, 'pglite')} holds no database, but ${file} says one lives there${since}; starting would create an empty one`,
    fix: `put the database back (a pglite.before-restore-* folder beside it, or \`caretaker restore --from DIR\`); to start afresh with an empty database on purpose, delete ${file}`,
  };
}
