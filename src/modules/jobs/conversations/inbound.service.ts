/**
 * Replies that arrive by e-mail or SMS land in their thread (docs/conversations.md "Reply by
 * e-mail", "SMS"). An e-mail is found by its signed reply address (reply-address.ts); its author
 * is the person of the thread who writes from its From address (the tenant of the job, the
 * contractor assigned to it, a landlord of its property, or staff of the agency: emailAuthor),
 * never the reply address's person by assumption; machine mail (auto-replies, bounces) is
 * recognised and not posted; the quoted history is cut; attachments become job files. Every
 * refusal is logged with its reason, never with the message's text.
 */
import type { ParsedMail } from 'mailparser';
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import type { Actor } from '../../../core/auth-context.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { recordIncomingFile, storeIncomingFile, type StoredIncomingFile } from '../job-files/index.ts';
import * as repo from './conversations.repository.ts';
import type { Audience } from './conversations.schemas.ts';
import { recordMessage, type Author } from './conversations.service.ts';
import { machineKind, replyText } from './inbound-mail.ts';
import { parseReplyAddress, replyKey } from './reply-address.ts';

const SYSTEM_ACTOR: Actor = { auth: null, ip: '127.0.0.1' };

/** Where the inbound handling reports what it did (pino's and Fastify's loggers fit). */
export interface InboundLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** What became of one received message. */
export type InboundOutcome =
  | { outcome: 'posted'; message_uuid: string; thread_uuid: string; attachments: number }
  | { outcome: 'duplicate' }
  | { outcome: 'ignored'; reason: 'auto_reply' | 'bounce' }
  | { outcome: 'refused'; reason: 'no_reply_address' | 'not_configured' | 'forged' | 'unknown_thread' | 'not_a_participant' | 'empty' };

/** A person of a thread: the author a message of theirs gets, their e-mail address, and who they are (`tenant:3`, `user:12`, ...). */
export type ThreadPerson = Author & { email: string | null; identity: string };

/**
 * The person behind a reply address's person part (u12, t3, c4, l5), if they still belong to the
 * thread: the job's tenant (record or account) in the tenant thread, its assigned contractor
 * (record or account) in the contractor thread, a landlord of the property (record or account) in
 * the landlord thread, or an active staff account of the thread's agency in any thread.
 * `identity` names the person behind an account and its record alike (`tenant:3` for the tenant
 * record 3 and for an account of that tenant; `user:12` for a staff account).
 */
export async function threadPerson(db: DbOrTrx, thread: repo.ThreadRow, person: string): Promise<ThreadPerson | undefined> {
  const id = Number(person.slice(1));
  const audience = thread.audience as Audience;
  switch (person[0]) {
    case 'u': {
      const u = await repo.findUserPerson(db, id);
      if (!u || u.status !== 'active' || u.agency_id !== thread.agency_id) return undefined;
      const base = { userId: u.id, key: null, name: u.name, email: u.email };
      if (u.tenant_id !== null) return audience === 'tenant' && u.tenant_id === thread.tenant_id ? { ...base, kind: 'tenant', identity: `tenant:${u.tenant_id}` } : undefined;
      if (u.contractor_id !== null) {
        return audience === 'contractor' && u.contractor_id === thread.contractor_id ? { ...base, kind: 'contractor', identity: `contractor:${u.contractor_id}` } : undefined;
      }
      if (u.landlord_id !== null) {
        if (audience !== 'landlord' || thread.address_id === null) return undefined;
        const owners = await repo.propertyLandlords(db, thread.agency_id, thread.address_id);
        return owners.some((o) => o.id === u.landlord_id) ? { ...base, kind: 'landlord', identity: `landlord:${u.landlord_id}` } : undefined;
      }
      return { ...base, kind: 'staff', identity: `user:${u.id}` };
    }
    case 't': {
      if (audience !== 'tenant' || thread.tenant_id !== id) return undefined;
      const t = await repo.findTenantPerson(db, thread.agency_id, id);
      return t ? { userId: null, kind: 'tenant', key: `tenant:${t.id}`, name: t.name, email: t.email, identity: `tenant:${t.id}` } : undefined;
    }
    case 'c': {
      if (audience !== 'contractor' || thread.contractor_id !== id) return undefined;
      const c = await repo.findContractorPerson(db, thread.agency_id, id);
      return c ? { userId: null, kind: 'contractor', key: `contractor:${c.id}`, name: c.contact_name ?? c.company_name, email: c.email, identity: `contractor:${c.id}` } : undefined;
    }
    case 'l': {
      if (audience !== 'landlord' || thread.address_id === null) return undefined;
      const l = (await repo.propertyLandlords(db, thread.agency_id, thread.address_id)).find((o) => o.id === id);
      return l ? { userId: null, kind: 'landlord', key: `landlord:${l.id}`, name: l.name, email: l.email, identity: `landlord:${l.id}` } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The people of a thread who write from `sender` (an e-mail address, any case): the active
 * accounts of the thread's agency with that address that belong to the thread (threadPerson), and
 * the thread's records with it (the job's tenant, its contractor, the property's landlords).
 * Accounts come first (a message by an account carries its author_user_id).
 */
export async function threadPeopleBySender(db: DbOrTrx, thread: repo.ThreadRow, sender: string): Promise<ThreadPerson[]> {
  const address = sender.trim().toLowerCase();
  if (address.length === 0) return [];
  const same = (e: string | null) => e !== null && e.trim().toLowerCase() === address;
  const found: ThreadPerson[] = [];
  for (const u of await repo.activeUsersByEmail(db, thread.agency_id, address)) {
    const p = await threadPerson(db, thread, `u${u.id}`);
    if (p) found.push(p);
  }
  const audience = thread.audience as Audience;
  const records =
    audience === 'tenant' && thread.tenant_id !== null ? [`t${thread.tenant_id}`]
    : audience === 'contractor' && thread.contractor_id !== null ? [`c${thread.contractor_id}`]
    : audience === 'landlord' && thread.address_id !== null ? (await repo.propertyLandlords(db, thread.agency_id, thread.address_id)).filter((l) => same(l.email)).map((l) => `l${l.id}`)
    : [];
  for (const r of records) {
    const p = await threadPerson(db, thread, r);
    if (p && same(p.email)) found.push(p);
  }
  return found;
}

/**
 * Who wrote a received e-mail (docs/conversations.md "Reply by e-mail"): established from its
 * sender AND the thread, never from the reply address alone (a reply address reaches other
 * people when an e-mail is forwarded). The person the reply address was made for, when they
 * belong to the thread and write from one of their addresses (the account's or its record's);
 * otherwise the one person of the thread who writes from that address; otherwise nobody (the
 * message is refused `not_a_participant`).
 * @param person the reply address's person part (u12, t3, c4, l5)
 * @param sender the From address of the message
 */
export async function emailAuthor(db: DbOrTrx, thread: repo.ThreadRow, person: string, sender: string | null): Promise<ThreadPerson | undefined> {
  if (sender === null) return undefined;
  const people = await threadPeopleBySender(db, thread, sender);
  if (people.length === 0) return undefined;
  const addressed = await threadPerson(db, thread, person);
  if (addressed && people.some((p) => p.identity === addressed.identity)) return addressed;
  const identities = new Set(people.map((p) => p.identity));
  // Two people of the thread sharing one address (two landlords of a property): not decidable, refused.
  return identities.size === 1 ? people[0] : undefined;
}

/** The addresses a message was sent to: the SMTP envelope's first, then To, Cc and Delivered-To. */
function candidateAddresses(mail: ParsedMail, envelopeTo: readonly string[]): string[] {
  const list = (v: ParsedMail['to']) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((a) => a.value.map((x) => x.address ?? '')));
  const delivered = mail.headers.get('delivered-to');
  return [...envelopeTo, ...list(mail.to), ...list(mail.cc), ...(typeof delivered === 'string' ? [delivered] : [])].filter((a) => a.length > 0);
}

/**
 * Checks the recipient addresses of an SMTP transaction before the data is sent (the listener's
 * RCPT TO): true for a reply address with a valid signature.
 */
export async function acceptsRecipient(deps: AppDeps, address: string): Promise<boolean> {
  const domain = deps.config.inboundMail.domain;
  if (domain === undefined) return false;
  return parseReplyAddress(await replyKey(deps.db, deps.clock.now()), domain, address).kind === 'reply';
}

/**
 * Lands one received e-mail in its thread.
 * @param raw the whole message (RFC 5322)
 * @param envelope the SMTP envelope when known: recipients and MAIL FROM ('' for the null sender)
 * @returns what became of it; nothing is posted unless `posted`
 */
export async function receiveEmail(deps: AppDeps, raw: Buffer | string, envelope: { to: readonly string[]; from?: string | undefined }, log: InboundLogger): Promise<InboundOutcome> {
  const domain = deps.config.inboundMail.domain;
  if (domain === undefined) return refuse(log, 'not_configured', {});
  // mailparser (about 10 MiB resident with its HTML and charset tables) loads with the first reply.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw, { skipHtmlToText: false });
  const key = await replyKey(deps.db, deps.clock.now());
  const parsed = candidateAddresses(mail, envelope.to).map((a) => parseReplyAddress(key, domain, a));
  const reply = parsed.find((p) => p.kind === 'reply');
  const fields = { message_id: mail.messageId ?? null, from: mail.from?.value[0]?.address ?? null };
  if (!reply || reply.kind !== 'reply') {
    const forged = parsed.find((p) => p.kind === 'forged');
    return refuse(log, forged ? 'forged' : 'no_reply_address', { ...fields, ...(forged ? { address: forged.address } : {}) });
  }
  const machine = machineKind(mail, envelope.from);
  if (machine) {
    log.info({ ...fields, thread_id: reply.threadId, reason: machine }, 'inbound e-mail ignored');
    return { outcome: 'ignored', reason: machine };
  }
  const thread = await repo.findThread(deps.db, reply.threadId);
  if (!thread) return refuse(log, 'unknown_thread', { ...fields, thread_id: reply.threadId });
  const author = await emailAuthor(deps.db, thread, reply.person, fields.from);
  if (!author) return refuse(log, 'not_a_participant', { ...fields, thread_id: reply.threadId, person: reply.person });

  const text = replyText(mail.text ?? '');
  const stored: Array<StoredIncomingFile & { uuid: string }> = [];
  const notes: string[] = [];
  for (const a of mail.attachments) {
    if (a.related && a.contentDisposition !== 'attachment') continue; // images of the HTML (signature logos)
    const s = await storeIncomingFile(deps, a.content, a.filename);
    if ('refused' in s) {
      // Dropped, not stored: the message says so in the sender's terms, the log says why.
      notes.push(`(Attachment ${s.filename} was not accepted: ${s.message.charAt(0).toLowerCase()}${s.message.slice(1)}.)`);
      log.info({ ...fields, thread_id: reply.threadId, attachment: s.filename, reason: s.refused }, 'inbound attachment refused');
    } else stored.push({ ...s, uuid: newUuid() });
  }
  const body = [text, ...notes].filter((x) => x.length > 0).join('\n\n');
  if (body.length === 0 && stored.length === 0) return refuse(log, 'empty', { ...fields, thread_id: reply.threadId });

  const now = deps.clock.now();
  const job = { id: thread.job_id, uuid: thread.job_uuid, agencyId: thread.agency_id, reference: thread.reference, branchId: thread.branch_id };
  const audience = thread.audience as Audience;
  const result = await deps.db.transaction().execute(async (trx) => {
    const fileIds: number[] = [];
    for (const s of stored) {
      fileIds.push(await recordIncomingFile(trx, { ...s, job, uploaderId: author.userId, internal: audience === 'internal', description: 'Received by e-mail', at: now }));
    }
    const r = await recordMessage(trx, now, {
      job, audience, author, body: body.length > 0 ? body : '(attachments only)', channel: 'email', urgent: false,
      externalId: mail.messageId ?? null, fileIds,
    });
    if (!r) return undefined;
    await recordActivity(trx, SYSTEM_ACTOR, now, {
      action: 'conversation_message.receive', resourceType: 'conversation_message', resourceId: r.id, agencyId: job.agencyId,
      details: { job_uuid: job.uuid, message_uuid: r.uuid, audience, channel: 'email', attachments: fileIds.length },
    });
    return r;
  });
  if (!result) {
    // The same Message-ID already landed: its stored copies have no record and are swept as orphans.
    log.info({ ...fields, thread_id: reply.threadId }, 'inbound e-mail already posted');
    return { outcome: 'duplicate' };
  }
  log.info({ ...fields, thread_id: reply.threadId, message_uuid: result.uuid, attachments: stored.length }, 'inbound e-mail posted');
  return { outcome: 'posted', message_uuid: result.uuid, thread_uuid: result.threadUuid, attachments: stored.length };
}

function refuse(log: InboundLogger, reason: Extract<InboundOutcome, { outcome: 'refused' }>['reason'], fields: Record<string, unknown>): InboundOutcome {
  log.warn({ ...fields, reason }, 'inbound e-mail refused');
  return { outcome: 'refused', reason };
}
