/** Notice routes (docs/messaging.md "Notices"). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { PaginationQuery } from '../../../http/pagination.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Type } from 'typebox';
import { CreateNoticeBody, CurrentNotice, CurrentNoticesQuery, ListNoticesQuery, Notice, NoticeParams, NoticeRead, UpdateNoticeBody } from './notices.schemas.ts';
import { createNotice, currentNotices, deleteNotice, getNotice, listNotices, noticeReads, readNotice, updateNotice } from './notices.service.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const MANAGE = 'api.notices.manage';
const VIEW = 'api.notices.view';
const ONE = '/api/notices/:uuid';

/** Registers the notice routes. */
export function noticesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/notices/current: what the caller should see now. */
    app.get('/api/notices/current', {
      config: { permission: VIEW },
      schema: {
        tags: ['notices'], summary: 'The notices addressed to me now',
        description: 'Notices of the caller\'s agency for everyone, the caller\'s branch or role, between starts_at and expires_at; critical first, then newest; read_at is the caller\'s read receipt. unread=true: only unread ones.',
        querystring: CurrentNoticesQuery, response: responses(ListEnvelope(CurrentNotice), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await currentNotices(deps, requireAuth(request), request.query);
        return list(rows, total, 'Notices retrieved');
      },
    });

    /** POST /api/notices/{uuid}/read: read receipt. */
    app.post(`${ONE}/read`, {
      config: { permission: VIEW },
      schema: {
        tags: ['notices'], summary: 'Mark a notice read',
        description: 'Only a notice addressed to the caller and showing now (else 404 "Notice not found"); repeating keeps the first read time. Needs a CSRF token.',
        params: NoticeParams, response: responses(DataEnvelope(Type.Object({ uuid: Uuid(), read_at: DateTime() })), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await readNotice(deps, requireAuth(request), request.params.uuid), 'Notice marked read'),
    });

    /** GET /api/notices: the agency's notices. */
    app.get('/api/notices', {
      config: { permission: MANAGE },
      schema: {
        tags: ['notices'], summary: 'List the agency notices',
        description: 'Newest start first, with read_count; state active, scheduled or expired. Agency accounts only.',
        querystring: ListNoticesQuery, response: responses(ListEnvelope(Notice), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listNotices(deps, requireAuth(request), request.query);
        return list(rows, total, 'Notices retrieved');
      },
    });

    /** POST /api/notices: publish. */
    app.post('/api/notices', {
      config: { permission: MANAGE },
      schema: {
        tags: ['notices'], summary: 'Publish a notice',
        description: 'title, body required; severity (default info); branch_uuid and/or role_code narrow the audience (404 when not of the agency); starts_at (default now), expires_at (after starts_at, else 400). Needs a CSRF token.',
        body: CreateNoticeBody, response: responses(DataEnvelope(Notice), [400, 401, 403, 404, 429], 201),
      },
      handler: async (request, reply) => {
        const notice = await createNotice(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(notice, 'Notice published');
      },
    });

    /** GET /api/notices/{uuid}. */
    app.get(ONE, {
      config: { permission: MANAGE },
      schema: { tags: ['notices'], summary: 'Read one notice', params: NoticeParams, response: responses(DataEnvelope(Notice), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getNotice(deps, requireAuth(request), request.params.uuid), 'Notice retrieved'),
    });

    /** PUT /api/notices/{uuid}. */
    app.put(ONE, {
      config: { permission: MANAGE },
      schema: {
        tags: ['notices'], summary: 'Change a notice', description: 'Any of the create fields (at least one); read receipts are kept. Needs a CSRF token.',
        params: NoticeParams, body: UpdateNoticeBody, response: responses(DataEnvelope(Notice), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await updateNotice(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Notice updated'),
    });

    /** DELETE /api/notices/{uuid}. */
    app.delete(ONE, {
      config: { permission: MANAGE },
      schema: { tags: ['notices'], summary: 'Withdraw a notice', description: 'Soft delete. Needs a CSRF token.', params: NoticeParams, response: responses(MessageEnvelope, [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        await deleteNotice(deps, requireAuth(request), actorOf(request), request.params.uuid);
        return done('Notice withdrawn');
      },
    });

    /** GET /api/notices/{uuid}/reads: who read it. */
    app.get(`${ONE}/reads`, {
      config: { permission: MANAGE },
      schema: {
        tags: ['notices'], summary: 'Who read a notice', description: 'Readers with their first read time, earliest first.',
        params: NoticeParams, querystring: PaginationQuery, response: responses(ListEnvelope(NoticeRead), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await noticeReads(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Readers retrieved');
      },
    });
  };
}
