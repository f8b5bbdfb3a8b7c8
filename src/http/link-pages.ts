/**
 * Answers of the signed-link routes that people without accounts open (a landlord's approval, a
 * contractor's works order, a tenant's survey or visit; docs/security.md "Signed links"): an HTML
 * page to a browser, the JSON envelope to any other client, never cached, never sending the
 * link's address on as a Referer; the token is masked in the request log by src/http/log-masking.ts.
 * `linkPage` is the pages' one HTML shell; their values are escaped by src/lib/html.ts (`html`,
 * `escapeHtml`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { html, trustedHtml, type SafeHtml } from '../lib/html.ts';
import { alsoSentAs, errorBody, fileResponse, responses } from './envelope.ts';

/**
 * The response schemas of a signed-link page route, as it answers (docs/api.md "Signed link
 * pages"): 200 the page as `text/html` (or, with `json`, that JSON to an API client and the page to
 * a browser); each refusal (400, 409, 410) the error envelope, or its page to a client that
 * accepts text/html (sendLinkRefusal); the other statuses the envelope.
 * @param json the JSON 200 schema of a route that answers API clients in JSON, else null
 * @param errors the error statuses of the route
 */
export function linkPageResponses(json: TSchema | null, errors: number[]): Record<number, TSchema> {
  const out = responses(json ?? fileResponse(['text/html'], 'The page, UTF-8 HTML'), errors);
  if (json) out[200] = alsoSentAs(json, ['text/html']);
  for (const status of [400, 409, 410]) if (out[status]) out[status] = alsoSentAs(out[status], ['text/html']);
  return out;
}

/**
 * A signed-link page: an English, phone-sized, unindexed HTML document titled `title` (escaped),
 * styled by `style` (the page's own CSS, written in the code) and holding `body`, markup whose
 * values were escaped (`html`/`escapeHtml` of src/lib/html.ts). It loads nothing from elsewhere.
 * @returns the whole document, for sendLinkHtml
 */
export function linkPage(title: string, style: string, body: string | SafeHtml): string {
  return html`<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>${trustedHtml(style)}</style>
</head><body>${typeof body === 'string' ? trustedHtml(body) : body}</body></html>`.text;
}

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
