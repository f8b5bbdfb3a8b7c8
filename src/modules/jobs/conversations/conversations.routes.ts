/**
 * Job conversations (docs/conversations.md): GET /api/jobs/{uuid}/threads,
 * GET/POST /api/jobs/{uuid}/threads/{audience}/messages, POST /api/jobs/{uuid}/threads/{audience}/read.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Type } from 'typebox';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { JobParams, ListMessagesQuery, Message, PostMessageBody, ReadState, Thread, ThreadParams } from './conversations.schemas.ts';
import { listThreadMessages, listThreads, markThreadRead, postThreadMessage } from './conversations.service.ts';

const PERMISSION = 'api.jobs.conversations.manage';
const WHO =
  'Staff see every thread of the jobs they see; a tenant only the tenant thread of their own job, a contractor only the contractor ' +
  'thread of jobs assigned to them, a landlord only the landlord thread of their properties\' jobs (another thread: 404).';

/** Registers the conversation routes. */
export function conversationsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/{uuid}/threads: the caller's threads of a job with counts and unread entries. */
    app.get('/api/jobs/:uuid/threads', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'List the conversation threads of a job',
        description: `${WHO} Threads that have no entry yet are listed with uuid null and count 0.`,
        params: JobParams,
        response: responses(DataEnvelope(Type.Array(Thread)), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await listThreads(deps, requireAuth(request), request.params.uuid), 'Threads retrieved'),
    });

    /** GET /api/jobs/{uuid}/threads/{audience}/messages: one page of a thread, newest first. */
    app.get('/api/jobs/:uuid/threads/:audience/messages', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'List the messages of a conversation thread',
        description: `Messages and the case notes shown in the thread, newest first. ${WHO}`,
        params: ThreadParams,
        querystring: ListMessagesQuery,
        response: responses(ListEnvelope(Message), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listThreadMessages(deps, requireAuth(request), request.params.uuid, request.params.audience, request.query);
        return list(rows, total, 'Messages retrieved');
      },
    });

    /** POST /api/jobs/{uuid}/threads/{audience}/messages: posts a message. */
    app.post('/api/jobs/:uuid/threads/:audience/messages', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'Post a message in a conversation thread',
        description:
          `${WHO} Attachments are documents or photos already uploaded to the job (internal files only in the internal thread). ` +
          'The other side hears of it by e-mail (with a reply address) and, for tenants and contractors with a mobile number, by SMS. Needs a CSRF token.',
        params: ThreadParams,
        body: PostMessageBody,
        response: responses(DataEnvelope(Message), [400, 401, 403, 404, 413, 429], 201),
      },
      handler: async (request, reply) => {
        const message = await postThreadMessage(deps, requireAuth(request), actorOf(request), request.params.uuid, request.params.audience, request.body);
        void reply.status(201);
        return ok(message, 'Message posted');
      },
    });

    /** POST /api/jobs/{uuid}/threads/{audience}/read: marks the thread read for the caller. */
    app.post('/api/jobs/:uuid/threads/:audience/read', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['jobs'],
        summary: 'Mark a conversation thread read',
        description: `Every entry up to now counts as read for the caller. ${WHO} Needs a CSRF token.`,
        params: ThreadParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(ReadState), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await markThreadRead(deps, requireAuth(request), request.params.uuid, request.params.audience), 'Thread marked read'),
    });
  };
}
