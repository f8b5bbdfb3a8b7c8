/**
 * Answers of the signed-link routes that people without accounts open (a landlord's approval, a
 * contractor's works order, a tenant's survey or visit; docs/security.md "Signed links"): an HTML
 * page to a browser, the JSON envelope to any other client, never cached, never sending the
 * link's address on as a Referer; the token is masked in the request log by src/http/log-masking.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './envelope.ts';

/** True when the client asks for HTML (a browser following the link). */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/html');
}

/** Sends a link page: `status`, text/html, no-store, no-referrer. */
export function sendLinkHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(html);
}

/**
 * Answers a refused link (400 not valid, 409 used, 410 expired or withdrawn): the page to a
 * browser, otherwise the error envelope `{success:false, error: '<title>: <text>'}` with the same
 * status, as the OpenAPI document declares.
 */
export function sendLinkRefusal(request: FastifyRequest, reply: FastifyReply, page: { status: number; html: string; title: string; text: string }): FastifyReply {
  if (wantsHtml(request)) return sendLinkHtml(reply, page.status, page.html);
  return reply.status(page.status).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(errorBody(`${page.title}: ${page.text}`));
}
