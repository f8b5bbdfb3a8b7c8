/**
 * What the composition root hands to every module: configuration, database, clock, rate-limit
 * store and optional Redis client. Tests build their own (fake clock, fresh database).
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from './config/config.ts';
import type { Db } from './db/database.ts';
import type { ReadRouting } from './db/replica.ts';
import type { Clock } from './lib/clock.ts';
import type { RateLimitStore } from './core/rate-limit.ts';
import type { AuthEpoch } from './core/auth-epoch.ts';
import type { CsrfStore } from './core/csrf-store.ts';
import type { CallbackUseStore } from './core/callback-uses.ts';
import type { RateLimitRules } from './core/rate-limit-rules.ts';
import type { FileStore } from './storage/file-store.ts';
import type { Mailer } from './core/mailer.ts';
import type { ListenChannel } from './db/notifications.ts';
import type { PgBoss } from 'pg-boss';
import type { SecretBox } from './lib/secret-box.ts';

export interface AppDeps {
  config: Readonly<Config>;
  db: Db;
  /**
   * The database of the reads that may lag (lists, dashboard, reports, search, exports): the read
   * replica when configured and current enough, else `db` (src/db/replica.ts).
   */
  reads: ReadRouting;
  engine: 'pglite' | 'postgres';
  clock: Clock;
  limiter: RateLimitStore;
  /** Moves on at every committed identity write; cached token lookups are used only under the epoch they were loaded in. */
  authEpoch: AuthEpoch;
  /** Where CSRF tokens are kept: Redis when configured, else the database (src/core/csrf-store.ts). */
  csrf: CsrfStore;
  /** Used provider callbacks (Mailgun tokens), so a signed request is accepted once: Redis when configured, else the database (src/core/callback-uses.ts). */
  callbackUses: CallbackUseStore;
  /** Rate-limit overrides per route set by an administrator (cached copy of the table). */
  rateLimitRules: RateLimitRules;
  redis?: Redis | undefined;
  /** Uploaded files (documents, photos, banners). */
  files: FileStore;
  /** Outgoing e-mail: SMTP when SMTP_URL is set, else .eml files (docs/email.md). */
  mailer: Mailer;
  /** The PostgreSQL pool (absent on PGlite), for the pool metrics. */
  pool?: pg.Pool | undefined;
  /** The read-only pool of the overlapped reads (PostgreSQL without a pooler), for the pool metrics. */
  readPool?: pg.Pool | undefined;
  /**
   * PGlite only: a consistent gzipped tarball of the live data folder (PGlite `dumpDataDir`, taken
   * while no Kysely transaction is open), for `caretaker backup` (src/modules/platform/backups).
   */
  snapshotDatabase?: (() => Promise<Blob>) | undefined;
  /**
   * Runs `fn` with a pg-boss instance that takes no work, for operator actions on the queue (the
   * dead-letter queue's retry, src/modules/platform/platform); absent where no database was opened.
   */
  queueAdmin?: (<T>(fn: (boss: PgBoss) => Promise<T>) => Promise<T>) | undefined;
  /** LISTEN on a database notification channel (PostgreSQL: its own connection; PGlite: in process), for the live updates (docs/live-updates.md). */
  listen: ListenChannel;
  /** Encrypts and decrypts the secrets stored in the database (TOTP secrets) under the instance's secrets key (src/lib/secret-box.ts). */
  secrets: SecretBox;
  /** Process start time, for uptime. */
  startedAt: Date;
}
