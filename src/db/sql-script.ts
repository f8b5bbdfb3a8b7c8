/**
 * Runs a script of several SQL statements one by one. PGlite's extended-protocol `query` takes a
 * single statement, so migrations split their scripts here; statements are separated by a
 * semicolon at the end of a line. Used by migrations only; imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

/** Executes each `;`-terminated statement of `script` in order. */
export async function runScript(db: Kysely<any>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}
