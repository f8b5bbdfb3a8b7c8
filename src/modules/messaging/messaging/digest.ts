/**
 * Digests (docs/messaging.md "SLA notices and digests"): the lines the messaging handler wrote for
 * people whose e-mail mode of a kind is `digest` (notification_digest_items) are gathered, per
 * person, into one e-mail by the periodic task `messaging.digest` (every hour, on the hour, UTC),
 * queued in the delivery log like any other message (kind `notifications.digest`, event
 * `messaging.digest`) and sent by the sender. A person's lines are claimed and marked in the same
 * transaction as their e-mail is queued, so a task run twice (two workers, a retry) sends each
 * line once. Lines of a person who is no longer active are dropped.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { PeriodicTask } from '../../../events/index.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { queueEmail } from './direct.ts';
import * as repo from './messaging.repository.ts';

/** The message kind of a digest in the delivery log. */
export const DIGEST_KIND = 'notifications.digest';
/** People gathered per round of a run. */
const USERS_PER_ROUND = 200;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Gathers every waiting line written up to now into one e-mail per person and queues it.
 * @returns { digests: e-mails queued, lines: lines gathered into them, dropped: lines of people no longer active }
 */
export async function sendDigests(deps: AppDeps): Promise<{ digests: number; lines: number; dropped: number }> {
  const before = deps.clock.now();
  const out = { digests: 0, lines: 0, dropped: 0 };
  const done = new Set<number>();
  for (;;) {
    const users = (await repo.usersWithDigestLines(deps.db, before, USERS_PER_ROUND)).filter((u) => !done.has(u));
    if (users.length === 0) break;
    for (const userId of users) {
      done.add(userId);
      await deps.db.transaction().execute(async (trx) => {
        const lines = await repo.claimDigestLines(trx, userId, before);
        if (lines.length === 0) return;
        const now = deps.clock.now();
        const agencyId = lines[0]!.agency_id;
        const reader = await repo.digestReader(trx, userId, agencyId);
        if (!reader) {
          await repo.markDigestLines(trx, lines.map((l) => l.id), null, now);
          out.dropped += lines.length;
          return;
        }
        const items = lines.map((l) => ({ at: formatLondonDateTime(new Date(l.created_at)), line: l.line, url: l.url }));
        const subject = `${reader.agency_name}: ${items.length} ${items.length === 1 ? 'notice' : 'notices'} since your last digest`;
        const text = [
          `Hello ${reader.name},`, '',
          `What happened since your last digest (London time):`, '',
          ...items.flatMap((i) => [`- ${i.at}: ${i.line}`, ...(i.url ? [`  ${i.url}`] : [])]), '',
          `You receive these as a digest. Choose immediate, digest or off per kind in your notification settings.`, '',
          reader.agency_name, '',
        ].join('\n');
        const html = `<p>Hello ${esc(reader.name)},</p><p>What happened since your last digest (London time):</p><ul>${items
          .map((i) => `<li>${esc(i.at)}: ${i.url ? `<a href="${esc(i.url)}">${esc(i.line)}</a>` : esc(i.line)}</li>`)
          .join('')}</ul><p>You receive these as a digest. Choose immediate, digest or off per kind in your notification settings.</p><p>${esc(reader.agency_name)}</p>`;
        const uuid = newUuid();
        await queueEmail(trx, {
          agencyId, eventId: uuid, eventName: 'messaging.digest', templateKey: DIGEST_KIND, recipientKey: `user:${userId}`, recipientKind: 'staff',
          recipientUserId: userId, address: reader.email, subject, text, html,
        }, now);
        await repo.markDigestLines(trx, lines.map((l) => l.id), uuid, now);
        out.digests += 1;
        out.lines += lines.length;
      });
    }
    if (users.length < USERS_PER_ROUND) break;
  }
  return out;
}

/** Every hour, on the hour: one digest e-mail per person with waiting lines. */
export const messagingDigestTask: PeriodicTask = {
  name: 'messaging.digest',
  cron: '0 * * * *',
  async run(deps, log) {
    const r = await sendDigests(deps);
    if (r.digests > 0 || r.dropped > 0) log?.info({ ...r }, 'notification digests queued');
  },
};
