/** Shared set-up of the push tests: a CA file for the local servers, users and their tokens. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../../src/db/database.ts';
import { hashToken } from '../../../src/lib/crypto.ts';
import { createAgency, createUser } from '../../helpers/app.ts';
import type { TlsMaterial } from './servers.ts';

/** Writes the test certificate where CARETAKER_PUSH_CA_FILE can point. */
export async function caFile(tls: TlsMaterial): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'caretaker-push-ca-')), 'ca.pem');
  await writeFile(file, tls.cert);
  return file;
}

/** An agency with one agent. */
export async function pushWorld(db: Db) {
  const agency = await createAgency(db);
  const user = await createUser(db, { role: 'admin', agencyId: agency.id });
  const other = await createUser(db, { role: 'admin', agencyId: agency.id });
  return { agency, user, other };
}

/** Stores a device token for a user as the devices module does; returns its id. */
export async function addToken(db: Db, userId: number, token: string, platform: 'ios' | 'android' | 'web'): Promise<number> {
  const row = await db
    .insertInto('device_tokens')
    .values({ user_id: userId, device_token: token, token_hash: hashToken(token), platform, registered_at: new Date('2026-11-20T09:00:00Z') })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The stored tokens of a user. */
export async function tokensOf(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('device_tokens').select('device_token').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.device_token);
}
