/**
 * LISTEN on a PostgreSQL notification channel, on either engine (docs/live-updates.md "Across
 * instances"): on PostgreSQL through a connection of its own (a pooled connection cannot hold a
 * LISTEN), reconnected after a loss; on PGlite through the embedded instance's own listeners, in
 * process, serialised with Kysely's use of the one connection. NOTIFY is transactional on both: a
 * payload arrives once its transaction has committed.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './database.ts';

/** A live subscription; `close()` stops it (idempotent). */
export interface ChannelSubscription {
  close(): Promise<void>;
}

/**
 * Subscribes to a channel.
 * @param channel the channel name (letters, digits and underscores)
 * @param onPayload called with each notification's payload text
 * @param onReconnect called after a lost connection was replaced (notifications in between were missed)
 * @throws the driver's error when the first LISTEN fails
 */
export type ListenChannel = (channel: string, onPayload: (payload: string) => void, onReconnect: () => void) => Promise<ChannelSubscription>;

/** How long to wait before reconnecting a lost LISTEN connection, in milliseconds. */
const RECONNECT_DELAY_MS = 1_000;

/** What listenerFor needs from the opened database. */
export interface ListenDatabase {
  db: Db;
  engine: 'pglite' | 'postgres';
  pglite?: PGlite | undefined;
}

/**
 * The LISTEN function of the opened database.
 * @param databaseUrl the PostgreSQL connection string (PostgreSQL only)
 */
export function listenerFor(database: ListenDatabase, databaseUrl: string | undefined): ListenChannel {
  if (database.engine === 'postgres') {
    if (!databaseUrl) throw new Error('PostgreSQL engine without DATABASE_URL');
    return (channel, onPayload, onReconnect) => listenPostgres(databaseUrl, channel, onPayload, onReconnect);
  }
  const pglite = database.pglite;
  if (!pglite) throw new Error('PGlite engine without its instance');
  return async (channel, onPayload) => {
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => database.db.connection().execute(() => fn());
    const unlisten = await exclusive(() => pglite.listen(channel, onPayload));
    let closed = false;
    return {
      close: async () => {
        if (closed) return;
        closed = true;
        await exclusive(() => unlisten()).catch(() => undefined);
      },
    };
  };
}

/**
 * LISTEN on `channel` over a connection of its own to `url` (never a pooled one), replaced after a
 * loss; pg-boss's wake-ups behind a pooler use it too (src/events/queue.ts).
 * @throws the driver's error when the first connection or LISTEN fails
 */
export async function listenPostgres(url: string, channel: string, onPayload: (payload: string) => void, onReconnect: () => void): Promise<ChannelSubscription> {
  if (!/^\w+$/.test(channel)) throw new Error(`Bad channel name ${channel}`);
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    c.on('notification', (msg) => {
      if (msg.channel === channel) onPayload(msg.payload ?? '');
    });
    // A lost connection ('error' then 'end', or 'end' alone) is replaced after a pause.
    c.on('error', () => {});
    c.on('end', () => {
      if (client === c) lost();
    });
    await c.connect();
    await c.query(`listen ${channel}`);
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
  };
  const lost = (): void => {
    client = null;
    if (closed) return;
    timer = setTimeout(() => {
      connect().then(onReconnect, () => lost());
    }, RECONNECT_DELAY_MS);
    timer.unref();
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
