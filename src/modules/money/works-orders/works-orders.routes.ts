/**
 * Works orders by link and competing quotes (docs/works-orders.md).
 * Staff: POST /api/jobs/{uuid}/works-order, GET /api/jobs/{uuid}/works-order-links,
 * POST /api/works-order-links/{uuid}/revoke, POST|GET /api/jobs/{uuid}/quote-requests,
 * GET /api/quote-requests/{uuid}, POST /api/quote-requests/{uuid}/award.
 * Contractor portal: GET /api/quote-requests/invitations, POST /api/quote-requests/{uuid}/answer.
 * Signed link (no account): GET and POST /api/works-orders/link/{token} (HTML for a browser, the
 * JSON envelope otherwise), GET .../job (JSON), POST .../photos (multipart).
 */
import { peoplePaths } from '../../../http/people-paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { linkPageResponses, sendLinkHtml, sendLinkRefusal, wantsHtml } from '../../../http/link-pages.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { AppError } from '../../../core/errors.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { uploadMaxBytes } from '../../jobs/job-files/index.ts';
import type { LinkRefusal } from './links.ts';
import { jobPage, refusedPage } from './link-pages.ts';
import { answerByQuoteLink, answerInPortal, awardQuoteRequest, createQuoteRequest, getQuoteRequest, listQuoteRequests, myInvitations, quoteLinkView } from './quote-requests.service.ts';
import {
  AwardBody, CreateQuoteRequestBody, Invitation, LinkActionBody, LinkParams, LinkView, PortalQuoteBody, QuoteRequest, QuoteRequestParams, SendWorksOrderBody, WorksOrderLink,
  type LinkViewDto,
} from './works-orders.schemas.ts';
import { actByToken, listJobLinks, photoByToken, revokeWorksOrderLink, sendWorksOrder, viewByToken } from './works-orders.service.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';

const TAGS = ['works-orders'];

/** A refused link: the page to a browser, the error envelope to anything else (src/http/link-pages.ts). */
const sendRefusal = (request: FastifyRequest, reply: FastifyReply, why: LinkRefusal) => sendLinkRefusal(request, reply, refusedPage(why));

/** The outcome of an action: the page again (browser) or the view in the envelope. */
function sendView(request: FastifyRequest, reply: FastifyReply, token: string, view: LinkViewDto) {
  if (wantsHtml(request)) return sendLinkHtml(reply, 200, jobPage(view, token));
  return reply.status(200).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(ok(view, view.message ?? 'Works order retrieved'));
}

/** Runs a link action; a refused action (an AppError: 400, 409) shows on the page for a browser. */
async function guarded(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, token: string, run: () => Promise<{ view: LinkViewDto } | { refusal: LinkRefusal }>) {
  try {
    const r = await run();
    if ('refusal' in r) return sendRefusal(request, reply, r.refusal);
    return sendView(request, reply, token, r.view);
  } catch (err) {
    if (!(err instanceof AppError) || !wantsHtml(request)) throw err;
    const v = await viewByToken(deps, token, quoteLinkView);
    if ('refusal' in v) return sendRefusal(request, reply, v.refusal);
    return sendLinkHtml(reply, err.statusCode, jobPage(v.view, token, err.publicMessage));
  }
}

const LINK_DESCRIPTION = 'A tampered, cross-job or unknown link: 400 "This link is not valid"; expired: 410; used up (a decline, an invoice, a quote answer): 409; withdrawn by the agent or the job given to another contractor: 410. A browser (Accept text/html) gets a page saying so, any other client the error envelope with the same status.';

/** Registers the routes. */
export function worksOrdersRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    /** POST /api/jobs/{uuid}/works-order: e-mails the contractor the works order with a signed link. */
    app.post('/api/jobs/:uuid/works-order', {
      config: { permission: 'api.works-orders.manage' },
      schema: {
        tags: TAGS,
        summary: "Send the job's works order to its contractor by signed link",
        description: 'For an Assigned, Scheduled, In progress or Completed job with a contractor that has an e-mail address (409 otherwise). The link (30 days unless expires_in_days) replaces any earlier works-order link of the job. The token travels only in the e-mail. Needs a CSRF token.',
        params: UuidParams,
        body: SendWorksOrderBody,
        response: responses(DataEnvelope(WorksOrderLink), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const link = await sendWorksOrder(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(link, 'Works order sent');
      },
    });

    /** GET /api/jobs/{uuid}/works-order-links: the job's links. */
    app.get('/api/jobs/:uuid/works-order-links', {
      config: { permission: 'api.works-orders.manage' },
      schema: { tags: TAGS, summary: "List a job's works-order and quote links", description: 'Newest first, with their state (live, used, revoked, expired); never the token.', params: UuidParams, response: responses(DataEnvelope(Type.Array(WorksOrderLink)), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await listJobLinks(deps, requireAuth(request), request.params.uuid), 'Links retrieved'),
    });

    /** POST /api/works-order-links/{uuid}/revoke: withdraws a link. */
    app.post('/api/works-order-links/:uuid/revoke', {
      config: { permission: 'api.works-orders.manage' },
      schema: { tags: TAGS, summary: 'Withdraw a works-order or quote link', description: 'Refused from now on with the "withdrawn" page. 409 once used or withdrawn. Needs a CSRF token.', params: UuidParams, body: CsrfOnlyBody, response: responses(DataEnvelope(WorksOrderLink), [400, 401, 403, 404, 409, 429]) },
      handler: async (request) => ok(await revokeWorksOrderLink(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Link withdrawn'),
    });

    /** POST /api/jobs/{uuid}/quote-requests: asks several contractors for competing quotes. */
    app.post('/api/jobs/:uuid/quote-requests', {
      config: { permission: 'api.quote-requests.manage' },
      schema: {
        tags: TAGS,
        summary: 'Ask several contractors for competing quotes by a deadline',
        description: '2 to 10 active contractors of the agency, each with an e-mail address; the job Reported, Awaiting approval, Approved or On hold, with no other open request (409). Each contractor is e-mailed a single-use quote link expiring at the deadline; contractors with a login can also answer in the portal. Needs a CSRF token.',
        params: UuidParams,
        body: CreateQuoteRequestBody,
        response: responses(DataEnvelope(QuoteRequest), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const r = await createQuoteRequest(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void reply.status(201);
        return ok(r, 'Quote request sent');
      },
    });

    /** GET /api/jobs/{uuid}/quote-requests. */
    app.get('/api/jobs/:uuid/quote-requests', {
      config: { permission: 'api.quote-requests.manage' },
      schema: { tags: TAGS, summary: "List a job's quote requests, each side by side", params: UuidParams, response: responses(DataEnvelope(Type.Array(QuoteRequest)), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await listQuoteRequests(deps, requireAuth(request), request.params.uuid), 'Quote requests retrieved'),
    });

    /** GET /api/quote-requests/invitations: the calling contractor's open invitations. */
    app.get('/api/quote-requests/invitations', {
      config: { permission: 'api.quote-requests.respond' },
      schema: { tags: TAGS, summary: 'Open requests for a quote to the calling contractor', description: 'Earliest deadline first.', response: responses(DataEnvelope(Type.Array(Invitation)), [401, 403, 429]) },
      handler: async (request) => ok(await myInvitations(deps, requireAuth(request)), 'Invitations retrieved'),
    });

    /** GET /api/quote-requests/{uuid}: the quotes side by side. */
    app.get('/api/quote-requests/:uuid', {
      config: { permission: 'api.quote-requests.manage' },
      schema: { tags: TAGS, summary: 'Compare the quotes of a request side by side', description: 'One entry per contractor asked: the quotes received cheapest first (rank 1 = lowest gross), then those declined or not answered.', params: QuoteRequestParams, response: responses(DataEnvelope(QuoteRequest), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getQuoteRequest(deps, requireAuth(request), request.params.uuid), 'Quote request retrieved'),
    });

    /** POST /api/quote-requests/{uuid}/award: awards one quote; the others are told. */
    app.post('/api/quote-requests/:uuid/award', {
      config: { permission: 'api.quote-requests.manage' },
      schema: {
        tags: TAGS,
        summary: 'Award a quote request to one quote',
        description: "Approves the quote as POST /api/jobs/{uuid}/quotes/{quote_uuid}/approve does (approval limit, agreed cost, the job's other quotes rejected, the job Approved), closes the request, withdraws the live quote links and e-mails the winner and the others. 409 when the request is not open. Needs api.quotes.approve too. Needs a CSRF token.",
        params: QuoteRequestParams,
        body: AwardBody,
        response: responses(DataEnvelope(QuoteRequest), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const auth = requireAuth(request);
        if (!auth.permissions.has('api.quotes.approve')) throw new AppError('forbidden');
        return ok(await awardQuoteRequest(deps, auth, actorOf(request), request.params.uuid, request.body), 'Quote request awarded');
      },
    });

    /** POST /api/quote-requests/{uuid}/answer: a contractor's quote (or decline) in the portal. */
    app.post('/api/quote-requests/:uuid/answer', {
      config: { permission: 'api.quote-requests.respond' },
      schema: {
        tags: TAGS,
        summary: 'Answer a request for a quote (contractor)',
        description: 'lines (as POST /api/jobs/{uuid}/quotes) or decline: true. Once per contractor and request, before the deadline (409 otherwise). Needs a CSRF token.',
        params: QuoteRequestParams,
        body: PortalQuoteBody,
        response: responses(DataEnvelope(Type.Array(Invitation)), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await answerInPortal(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), request.body.decline ? 'Request declined' : 'Quote submitted'),
    });

    /** GET /api/works-orders/link/{token}: the contractor's page. */
    // Served at the API path and at the people's path the e-mails give (src/http/people-paths.ts).
    for (const [url, hide] of peoplePaths('/api/works-orders/link/:token')) {
      app.get(url, {
        config: { permission: 'public' },
        schema: {
          hide,
          tags: TAGS,
          summary: "The contractor's works-order or quote page (signed link, no account)",
          description: `HTML, phone-sized: the job and a form per action its state allows. Opening changes nothing. ${LINK_DESCRIPTION}`,
          params: LinkParams,
          response: linkPageResponses(null, [400, 409, 410, 429]),
        },
        handler: async (request, reply) => {
          const v = await viewByToken(deps, request.params.token, quoteLinkView);
          if ('refusal' in v) return sendRefusal(request, reply, v.refusal);
          return sendLinkHtml(reply, 200, jobPage(v.view, request.params.token));
        },
      });
    }

    /** GET /api/works-orders/link/{token}/job: the same as JSON. */
    for (const [url, hide] of peoplePaths('/api/works-orders/link/:token/job')) {
      app.get(url, {
        config: { permission: 'public' },
        schema: { hide, tags: TAGS, summary: 'What a works-order or quote link shows, as JSON', description: `The job, the actions allowed now, the time slots and the contractor's invoices. ${LINK_DESCRIPTION}`, params: LinkParams, response: responses(DataEnvelope(LinkView), [400, 409, 410, 429]) },
        handler: async (request, reply) => {
          const v = await viewByToken(deps, request.params.token, quoteLinkView);
          if ('refusal' in v) return sendRefusal(request, reply, v.refusal);
          return reply.header('cache-control', 'no-store').send(ok(v.view, 'Works order retrieved'));
        },
      });
    }

    /** POST /api/works-orders/link/{token}: one action by link. */
    for (const [url, hide] of peoplePaths('/api/works-orders/link/:token')) {
      app.post(url, {
        config: { permission: 'public' },
        schema: {
          hide,
          tags: TAGS,
          summary: 'Act on a works order or answer a quote request by signed link',
          description:
            'Form or JSON body with `action`: works order accept | decline (reason) | book (scheduled_for, time_range_id) | note (body) | attended | completed | invoice (lines in pence, or one form line in pounds; contractor_reference, notes); quote link quote | decline_quote. ' +
            'Each runs the portal\'s own service as the link\'s contractor (lifecycle, activity log, events). decline, invoice and the quote answers use the link up. ' +
            `A browser gets the page again with the outcome; a refused action (400, 409) shows its message on the page with that status. ${LINK_DESCRIPTION}`,
          params: LinkParams,
          body: LinkActionBody,
          response: linkPageResponses(DataEnvelope(LinkView), [400, 409, 410, 429]),
        },
        handler: async (request, reply) => {
          const token = request.params.token;
          return guarded(deps, request, reply, token, async () => (await answerByQuoteLink(deps, token, request.body, request.ip)) ?? actByToken(deps, token, request.body, request.ip));
        },
      });
    }

    /** POST /api/works-orders/link/{token}/photos: a photo by link. */
    for (const [url, hide] of peoplePaths('/api/works-orders/link/:token/photos')) {
      app.post(url, {
        config: { permission: 'public' },
        schema: {
          hide,
          tags: TAGS,
          summary: 'Add a photo to the job by works-order link',
          description: `multipart/form-data with \`file\` (JPEG, PNG, WebP or HEIC from the bytes, within the photo size limit: 413 above) and optional \`description\`; runs the portal's upload as the link's contractor. ${LINK_DESCRIPTION}`,
          params: LinkParams,
          consumes: ['multipart/form-data'],
          response: linkPageResponses(DataEnvelope(LinkView), [400, 409, 410, 413, 429]),
        },
        handler: async (request, reply) => {
          const token = request.params.token;
          const upload = await readUpload(request, uploadMaxBytes(deps, 'photo'));
          try {
            return await guarded(deps, request, reply, token, () => photoByToken(deps, token, upload, request.ip));
          } finally {
            await upload.file.dispose();
          }
        },
      });
    }
  };
}
