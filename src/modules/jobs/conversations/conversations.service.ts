/**
 * Job conversations (docs/conversations.md): one thread per job and audience (tenant, contractor,
 * landlord, internal), the job's case notes shown in the threads their visibility maps onto,
 * messages with attachments kept as job files, and read state per person.
 *
 * Who sees which thread: staff (SysOps, admin, API account, agent) every thread of the jobs they
 * see; a tenant only the tenant thread of their own job, a contractor only the contractor thread
 * of jobs assigned to them, a landlord only the landlord thread of their properties' jobs. Any
 * other thread answers 404 "Thread not found", the same as a job outside the caller's scope
 * answers 404 "Job not found". Whoever may read a thread may write in it.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { DbOrTrx, Trx } from '../../../db/types.ts';
import { emitEvent } from '../../../events/index.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, invalidParam, notFound } from '../../../core/errors.ts';
import { toIso } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/crypto.ts';
import { formatLondonDateTime } from '../../../lib/london-time.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { findVisibleJob } from '../job-access/index.ts';
import { findLiveFiles } from '../job-files/index.ts';
import type { JobScope } from '../jobs/index.ts';
import * as repo from './conversations.repository.ts';
import { AUDIENCES, type Audience, type ListMessagesInput, type MessageDto, type PostMessageInput, type ThreadDto } from './conversations.schemas.ts';
import { cutGraphemes } from '../../../lib/text-cut.ts';

export type AuthorKind = 'staff' | 'tenant' | 'contractor' | 'landlord' | 'system';

/** Who wrote a message. */
export interface Author {
  userId: number | null;
  kind: AuthorKind;
  /** `tenant:<id>`, `contractor:<id>`, `landlord:<id>` for a person without an account. */
  key: string | null;
  name: string;
}

/** The fields of a job a message needs. */
export interface MessageJob {
  id: number;
  uuid: string;
  agencyId: number;
  reference: string;
  branchId: number;
}

/** The threads a scope may read and write. */
export function audiencesOf(scope: JobScope): readonly Audience[] {
  if (scope.kind === 'all' || scope.kind === 'agency' || scope.kind === 'branch') return AUDIENCES;
  if (scope.kind === 'tenant') return ['tenant'];
  if (scope.kind === 'contractor') return ['contractor'];
  if (scope.kind === 'landlord') return ['landlord'];
  return [];
}

function authorKindOf(scope: JobScope): AuthorKind {
  return scope.kind === 'tenant' || scope.kind === 'contractor' || scope.kind === 'landlord' ? scope.kind : 'staff';
}

/**
 * The job and the thread's audience, if the caller may read it.
 * @throws 404 "Job not found" (job outside the scope), 404 "Thread not found" (a thread of another audience)
 */
async function visibleThread(deps: AppDeps, auth: AuthContext, jobUuid: string, audience: Audience) {
  const { job, scope } = await findVisibleJob(deps.db, auth, jobUuid);
  if (!audiencesOf(scope).includes(audience)) throw notFound('Thread');
  return { job, scope };
}

/**
 * GET /api/jobs/{uuid}/threads: the threads of a visible job the caller may read, with counts,
 * the caller's unread entries and the newest entry.
 * @throws 404 "Job not found"
 */
export async function listThreads(deps: AppDeps, auth: AuthContext, jobUuid: string): Promise<ThreadDto[]> {
  const { job, scope } = await findVisibleJob(deps.db, auth, jobUuid);
  const rows = await repo.threadSummaries(deps.db, job.id, audiencesOf(scope), auth.userId);
  return rows.map((r) => ({
    audience: r.audience,
    uuid: r.uuid,
    job_uuid: job.uuid,
    message_count: r.total,
    unread_count: r.unread,
    last_message_at: r.lastAt === null ? null : toIso(r.lastAt),
    last_message_preview: r.preview === null ? null : cutGraphemes(r.preview, 140),
    read_at: r.readAt === null ? null : toIso(r.readAt),
  }));
}

/** Wire shapes of entry rows, with their attachments. */
export async function toMessageDtos(db: DbOrTrx, rows: repo.EntryRow[]): Promise<MessageDto[]> {
  const files = await repo.messageFiles(db, rows.filter((r) => r.kind === 'message').map((r) => r.id));
  return rows.map((r) => ({
    uuid: r.uuid,
    job_uuid: r.job_uuid,
    audience: r.audience,
    kind: r.kind,
    channel: r.channel,
    body: r.body,
    urgent: r.urgent,
    author_uuid: r.author_uuid ?? null,
    // Messages the system sends (acknowledgements, reminders) are signed by the agency.
    author_name: r.author_name ?? r.user_name ?? r.agency_name,
    author_kind: r.author_kind ?? (r.author_user_id === null ? 'system' : (['tenant', 'contractor', 'landlord'].includes(r.role_code ?? '') ? r.role_code! : 'staff')),
    attachments:
      r.kind === 'message'
        ? files.filter((f) => f.message_id === r.id).map((f) => ({
            uuid: f.uuid, kind: f.kind, filename: f.original_filename, mime: f.mime, size_bytes: f.size_bytes,
            download_url: `/api/jobs/${f.job_uuid}/${f.kind === 'photo' ? 'photos' : 'documents'}/${f.uuid}`,
          }))
        : [],
    created_at: toIso(r.created_at),
    created_at_text: formatLondonDateTime(new Date(r.created_at)),
  }));
}

/**
 * GET /api/jobs/{uuid}/threads/{audience}/messages: one page of a thread's entries (messages and
 * the case notes shown in it), newest first.
 * @throws 404 "Job not found" / "Thread not found"
 */
export async function listThreadMessages(deps: AppDeps, auth: AuthContext, jobUuid: string, audience: Audience, page: ListMessagesInput) {
  const { job } = await visibleThread(deps, auth, jobUuid, audience);
  const { rows, total } = await repo.listEntries(deps.db, job.id, audience, page);
  return { rows: await toMessageDtos(deps.db, rows), total };
}

/**
 * Writes one message in a thread (created on first use), links its files, marks the thread read
 * for its author and emits `conversation.message_posted`, all in the caller's transaction.
 * @returns ids of the message and thread, or undefined when a message with the same external id
 *   (e-mail Message-ID, SMS id) is already in the thread
 */
export async function recordMessage(
  trx: Trx,
  at: Date,
  m: { job: MessageJob; audience: Audience; author: Author; body: string; channel: 'web' | 'email' | 'sms'; urgent: boolean; externalId: string | null; fileIds: readonly number[] },
) {
  const thread = await repo.ensureThread(trx, { uuid: newUuid(), agencyId: m.job.agencyId, jobId: m.job.id, audience: m.audience, at });
  const uuid = newUuid();
  const id = await repo.insertMessage(trx, {
    uuid, agencyId: m.job.agencyId, threadId: thread.id, jobId: m.job.id, authorUserId: m.author.userId, authorKind: m.author.kind, authorKey: m.author.key,
    authorName: m.author.name, channel: m.channel, body: m.body, urgent: m.urgent, externalId: m.externalId, at,
  });
  if (id === undefined) return undefined;
  await repo.linkFiles(trx, id, m.fileIds);
  if (m.author.userId !== null) await repo.markRead(trx, m.job.id, m.audience, m.author.userId, at);
  await emitEvent(trx, at, {
    name: 'conversation.message_posted',
    agencyId: m.job.agencyId,
    payload: {
      job_id: m.job.id, job_uuid: m.job.uuid, reference: m.job.reference, branch_id: m.job.branchId, thread_id: thread.id, thread_uuid: thread.uuid,
      audience: m.audience, message_id: id, message_uuid: uuid, channel: m.channel, author_user_id: m.author.userId, author_kind: m.author.kind,
    },
  });
  return { id, uuid, threadId: thread.id, threadUuid: thread.uuid };
}

/**
 * POST /api/jobs/{uuid}/threads/{audience}/messages: posts a message as the caller, with its
 * activity entry, in one transaction. Attachments are job files of the same job the caller can
 * see; an internal file only in the internal thread.
 * @returns the message
 * @throws 404 "Job not found" / "Thread not found"; 400 `body` (blank), `attachment_uuids` (a file
 *   that is not a live file of the job visible to the caller, or internal outside the internal
 *   thread), `urgent` (set by someone other than staff)
 */
export async function postThreadMessage(deps: AppDeps, auth: AuthContext, actor: Actor, jobUuid: string, audience: Audience, input: PostMessageInput): Promise<MessageDto> {
  const { job, scope } = await visibleThread(deps, auth, jobUuid, audience);
  const body = input.body.trim();
  if (body.length === 0) throw invalidParam('body');
  const kind = authorKindOf(scope);
  if (input.urgent === true && kind !== 'staff') throw invalidParam('urgent');
  const uuids = [...new Set(input.attachment_uuids ?? [])];
  const files = await findLiveFiles(deps.db, job.id, uuids, kind === 'staff');
  if (files.length !== uuids.length || (audience !== 'internal' && files.some((f) => f.internal))) throw invalidParam('attachment_uuids');
  const now = deps.clock.now();
  const posted = await deps.db.transaction().execute(async (trx) => {
    const r = await recordMessage(trx, now, {
      job, audience, author: { userId: auth.userId, kind, key: null, name: auth.name }, body, channel: 'web', urgent: input.urgent === true, externalId: null,
      fileIds: files.map((f) => f.id),
    });
    if (!r) throw new AppError('internal');
    await recordActivity(trx, actor, now, {
      action: 'conversation_message.create',
      resourceType: 'conversation_message',
      resourceId: r.id,
      agencyId: job.agencyId,
      details: { job_uuid: job.uuid, message_uuid: r.uuid, audience, attachments: files.length },
    });
    return r;
  });
  const row = await repo.findMessageEntry(deps.db, job.id, audience, posted.id);
  if (!row) throw new AppError('internal');
  return (await toMessageDtos(deps.db, [row]))[0]!;
}

/**
 * POST /api/jobs/{uuid}/threads/{audience}/read: marks every entry of the thread up to now read
 * for the caller (the mark never moves back).
 * @returns the read mark and the entries still unread (0 unless written in the meantime)
 * @throws 404 "Job not found" / "Thread not found"
 */
export async function markThreadRead(deps: AppDeps, auth: AuthContext, jobUuid: string, audience: Audience) {
  const { job } = await visibleThread(deps, auth, jobUuid, audience);
  const now = deps.clock.now();
  await repo.markRead(deps.db, job.id, audience, auth.userId, now);
  const [summary] = await repo.threadSummaries(deps.db, job.id, [audience], auth.userId);
  return { audience, read_at: toIso(summary?.readAt ?? now), unread_count: summary?.unread ?? 0 };
}
