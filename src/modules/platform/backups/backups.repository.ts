/**
 * SQL of the backup commands (docs/operations.md "Backups"): row counts per table, the migrations a
 * database has, and the scratch database `verify-backup --dump` restores into.
 */
import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../../db/database.ts';

/** Rows per table of the public schema (pg-boss's own schema excluded: its jobs are transient), by table name. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db);
  const out: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const row = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    out[name] = row.rows[0]!.n;
  }
  return out;
}

/** The migrations recorded in a database, by name. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Creates the scratch database `name` (a generated identifier) on the server `admin` is connected to. */
export async function createScratchDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`create database ${name}`);
}

/** Drops the scratch database `name` if it exists, closing its connections. */
export async function dropScratchDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`drop database if exists ${name} with (force)`);
}

/**
 * Ends every credential of a restored database (docs/operations.md "Restore"): every bearer token
 * and browser session not already revoked is revoked with reason `restore`, and every unused
 * invitation and password-reset link is marked used, so nothing revoked or used after the backup
 * works again.
 * @returns the tokens and links ended
 */
export async function endAllCredentials(db: Db, at: Date): Promise<{ tokens: number; links: number }> {
  return db.transaction().execute(async (trx) => {
    const tokens = await trx.updateTable('auth_tokens').set({ revoked_at: at, revoked_reason: 'restore' }).where('revoked_at', 'is', null).executeTakeFirst();
    const links = await trx.updateTable('user_tokens').set({ used_at: at }).where('used_at', 'is', null).executeTakeFirst();
    return { tokens: Number(tokens.numUpdatedRows), links: Number(links.numUpdatedRows) };
  });
}
