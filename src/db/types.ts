/**
 * Database handle types shared by every repository: a repository function takes `DbOrTrx` first so
 * that a service can run several of them in one transaction (docs/architecture.md "Layers").
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** The database, or a transaction on it. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
/** A transaction: for functions that must run inside one (outbox writes, locked updates). */
export type Trx = Transaction<Database>;
