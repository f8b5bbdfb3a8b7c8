/**
 * Approvals (docs/landlords.md "Approvals"): staff routes (POST /api/jobs/{uuid}/landlord-approval,
 * GET /api/landlords/approvals, GET .../{uuid}, POST .../{uuid}/revoke, POST .../{uuid}/resend)
 * and the landlord's signed link (GET and POST /api/approvals/link/{token}: HTML pages, no account).
 */
import { peoplePaths } from '../../../http/people-paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { linkPageResponses, sendLinkHtml, sendLinkRefusal } from '../../../http/link-pages.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { formatPounds } from '../money/index.ts';
import type { LinkRefusal } from './approval-links.ts';
import { answerPage, donePage, refusedPage } from './approval-pages.ts';
import { Approval, ApprovalDecision, LinkAnswerBody, LinkParams, LinkQuery, ListApprovalsQuery, RequestApprovalBody } from './approvals.schemas.ts';
import { answerByLink, getApproval, listApprovals, requestJobApproval, resendApproval, revokeApproval, viewByLink } from './approvals.service.ts';

const TAGS = ['landlords'];

/** A refused link: the page to a browser, the error envelope to anything else (src/http/link-pages.ts). */
const sendRefusal = (request: FastifyRequest, reply: FastifyReply, why: LinkRefusal) => sendLinkRefusal(request, reply, refusedPage(why));

/** Registers the approval routes. */
export function approvalsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** POST /api/jobs/{uuid}/landlord-approval: asks the landlord when the cost is above the limit. */
    app.post('/api/jobs/:uuid/landlord-approval', {
      config: { permission: 'api.landlords.approvals.manage' },
      schema: {
        tags: TAGS,
        summary: "Ask the property's landlord to approve a job cost above the spend limit",
        description: 'At or under the limit (or with no landlord or no limit): 200 with required false and nothing written. Above: 201, the job moves Reported -> Awaiting approval and the landlord is e-mailed signed links. 409 while another job-cost request of the job waits. Needs a CSRF token.',
        params: UuidParams,
        body: RequestApprovalBody,
        response: { ...responses(DataEnvelope(ApprovalDecision), [400, 401, 403, 404, 409, 429], 201), 200: DataEnvelope(ApprovalDecision) },
      },
      handler: async (request, reply) => {
        const d = await requestJobApproval(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void (reply as unknown as FastifyReply).status(d.required ? 201 : 200);
        const message = d.required
          ? 'Approval requested from the landlord'
          : d.limit_pence !== null && request.body.amount_pence > d.limit_pence
            ? 'The property has no landlord to ask: no approval needed'
            : 'Within the spend limit: no approval needed';
        return ok(d, message);
      },
    });

    /** GET /api/landlords/approvals: approvals of the agency, newest first. */
    app.get('/api/landlords/approvals', {
      config: { permission: 'api.landlords.view' },
      schema: {
        tags: TAGS,
        summary: 'List approval requests',
        querystring: ListApprovalsQuery,
        response: responses(ListEnvelope(Approval), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listApprovals(deps, requireAuth(request), request.query);
        return list(rows, total, 'Approvals retrieved');
      },
    });

    /** GET /api/landlords/approvals/{uuid}. */
    app.get('/api/landlords/approvals/:uuid', {
      config: { permission: 'api.landlords.view' },
      schema: { tags: TAGS, summary: 'Read an approval request', params: UuidParams, response: responses(DataEnvelope(Approval), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getApproval(deps, requireAuth(request), request.params.uuid), 'Approval retrieved'),
    });

    /** POST /api/landlords/approvals/{uuid}/revoke: withdraws a waiting approval and its links. */
    app.post('/api/landlords/approvals/:uuid/revoke', {
      config: { permission: 'api.landlords.approvals.manage' },
      schema: {
        tags: TAGS,
        summary: 'Withdraw an approval request',
        description: 'Its link is refused from now on ("withdrawn" page). 409 once answered, expired or withdrawn. Needs a CSRF token.',
        params: UuidParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(Approval), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await revokeApproval(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Approval withdrawn'),
    });

    /** POST /api/landlords/approvals/{uuid}/resend: a new link (the old one withdrawn) and a fresh expiry. */
    app.post('/api/landlords/approvals/:uuid/resend', {
      config: { permission: 'api.landlords.approvals.manage' },
      schema: {
        tags: TAGS,
        summary: 'Ask the landlord again (after a question, or a lost e-mail)',
        description: 'The old link is withdrawn, a new one e-mailed; the approval is pending again with a fresh expiry. 409 unless pending or questioned. Needs a CSRF token.',
        params: UuidParams,
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(Approval), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await resendApproval(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Approval sent again'),
    });

    /** GET /api/approvals/link/{token}: the landlord's page with the question and the answer form. */
    // Served at the API path and at the people's path the e-mails give (src/http/people-paths.ts).
    for (const [url, hide] of peoplePaths('/api/approvals/link/:token')) {
      app.get(url, {
        config: { permission: 'public' },
        schema: {
          hide,
          tags: TAGS,
          summary: "The landlord's approval page (signed link, no account)",
          description: 'HTML. Shows the job, property, cost and limit with a form (approve, decline, ask a question, comment). Looking does not answer. A tampered, expired, used, withdrawn or cross-scoped link gets a page saying so (400, 410, 409, 410, 400) when the client accepts text/html, otherwise the error envelope with the same status.',
          params: LinkParams,
          querystring: LinkQuery,
          response: linkPageResponses(null, [400, 409, 410, 429]),
        },
        handler: async (request, reply) => {
          const v = await viewByLink(deps, request.params.token);
          if (!v.row) return sendRefusal(request, reply, v.refusal!);
          const a = v.row;
          const html = answerPage({
            agencyName: v.agencyName, landlordName: a.landlord_name, jobReference: a.job_reference, jobTitle: a.job_title,
            property: a.address_line1 ? `${a.address_line1}, ${a.address_town}, ${a.address_postcode}` : null,
            description: a.description, amount: formatPounds(a.amount_pence), limit: formatPounds(a.limit_pence), expiresAt: new Date(a.expires_at),
          }, request.query.action ?? 'approve');
          return sendLinkHtml(reply, 200, html);
        },
      });
    }

    /** POST /api/approvals/link/{token}: the landlord's answer (form post); the link is used up. */
    for (const [url, hide] of peoplePaths('/api/approvals/link/:token')) {
      app.post(url, {
        config: { permission: 'public' },
        schema: {
          hide,
          tags: TAGS,
          summary: "The landlord's answer by signed link",
          description: 'Form or JSON body: action approve | decline | question, comment. HTML thank-you page; the answer and comment go on the job as a note and move it (approve -> Approved, decline -> On hold). The link works once; refusals as for GET.',
          params: LinkParams,
          body: LinkAnswerBody,
          response: linkPageResponses(null, [400, 409, 410, 429]),
        },
        handler: async (request, reply) => {
          const comment = request.body.comment?.trim() || null;
          const r = await answerByLink(deps, request.params.token, request.body.action, comment, request.ip);
          if ('refusal' in r) return sendRefusal(request, reply, r.refusal);
          return sendLinkHtml(reply, 200, donePage(r.action, r.jobReference));
        },
      });
    }
  };
}
