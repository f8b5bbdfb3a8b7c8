/** SQL of the message template overrides and their versions (docs/messaging.md "Templates"). */
import type { Insertable } from 'kysely';
import type { MessageTemplateVersionTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';

const COLUMNS = ['v.id', 'v.template_key', 'v.channel', 'v.version', 'v.reverted', 'v.subject', 'v.mjml', 'v.text_body', 'v.title', 'v.body', 'v.created_at', 'u.name as created_by'] as const;

function versions(db: DbOrTrx, agencyId: number) {
  return db.selectFrom('message_template_versions as v').leftJoin('users as u', 'u.id', 'v.created_by_user_id').where('v.agency_id', '=', agencyId);
}

/** The latest version of every template the agency overrode (or reverted), one per key and channel. */
export async function latestVersions(db: DbOrTrx, agencyId: number) {
  const rows = await versions(db, agencyId).select(COLUMNS).orderBy('v.template_key').orderBy('v.channel').orderBy('v.version', 'desc').execute();
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = `${r.template_key}.${r.channel}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
export type TemplateVersionRow = Awaited<ReturnType<typeof latestVersions>>[number];

/** The latest version of one template of the agency, or undefined. */
export function latestVersion(db: DbOrTrx, agencyId: number, key: string, channel: 'email' | 'push' | 'sms') {
  return versions(db, agencyId).select(COLUMNS).where('v.template_key', '=', key).where('v.channel', '=', channel).orderBy('v.version', 'desc').limit(1).executeTakeFirst();
}

/** One page of the versions of one template, newest first, and their total. */
export async function listVersions(db: DbOrTrx, agencyId: number, key: string, channel: 'email' | 'push' | 'sms', limit: number, offset: number) {
  const base = versions(db, agencyId).where('v.template_key', '=', key).where('v.channel', '=', channel);
  const rows = await base.select(COLUMNS).orderBy('v.version', 'desc').limit(limit).offset(offset).execute();
  const { n } = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

/** Appends a version; returns its id. The unique key (agency, key, channel, version) makes a concurrent save 409 upstream. */
export async function insertVersion(db: DbOrTrx, row: Insertable<MessageTemplateVersionTable>): Promise<number> {
  return (await db.insertInto('message_template_versions').values(row).returning('id').executeTakeFirstOrThrow()).id;
}
