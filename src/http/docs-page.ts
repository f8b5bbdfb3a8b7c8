/**
 * The /docs page's own HTML and start-up script (docs/api.md "Docs page"), in place of
 * @fastify/swagger-ui's, which waits for the window's load event before it asks for the document
 * and loads the standalone preset for a top bar (a URL box) that this page does not use. Here the
 * document is requested with the page itself (`<link rel="preload">`, which Swagger UI's own
 * request then takes from the preload cache: one request), Swagger UI starts as soon as its
 * script has run, with its base layout. The plugin still serves the static files and /docs/json.
 */
import { escapeHtml } from '../lib/html.ts';

/** Serialises the page's configuration, functions included (as their source), for the script. */
function serialise(value: unknown): string {
  if (typeof value === 'function') return `(${value.toString()})`;
  if (Array.isArray(value)) return `[${value.map(serialise).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${serialise(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * The reference's first view, drawn from the page's HTML before Swagger UI has started (about a
 * second of script on a small machine): the title, version and description, and every tag with
 * its description and a deep link, in Swagger UI's own classes so that the switch is seamless.
 * Swagger UI replaces it when it draws.
 * @param doc the OpenAPI document (`info`, `tags`)
 * @returns an HTML fragment for inside `#swagger-ui`
 */
export function docsPageOutline(doc: { info?: { title?: string; version?: string; description?: string }; tags?: Array<{ name: string; description?: string }> }): string {
  const tags = (doc.tags ?? [])
    .map(
      (tag) =>
        `<div class="opblock-tag-section"><h3 class="opblock-tag"><a class="nostyle" href="#/${encodeURIComponent(tag.name)}"><span>${escapeHtml(tag.name)}</span></a>` +
        `<small><div class="markdown">${escapeHtml(tag.description)}</div></small></h3></div>`,
    )
    .join('\n');
  return `<div class="swagger-ui" id="docs-outline">
<div class="information-container wrapper"><section class="block col-12"><div class="info">
<hgroup class="main"><h2 class="title">${escapeHtml(doc.info?.title)} <small><pre class="version">${escapeHtml(doc.info?.version)}</pre></small></h2></hgroup>
<div class="description"><div class="markdown"><p>${escapeHtml(doc.info?.description)}</p></div></div>
</div></section></div>
<div class="wrapper"><section class="block col-12"><p role="status">Loading the interactive reference…</p>
${tags}
</section></div>
</div>`;
}

/**
 * The page's HTML.
 * @param prefix the page's path (`/docs`); the document is at `${prefix}/json`, the files under `${prefix}/static`
 * @param title the page's title
 * @param outline the first view (docsPageOutline), replaced by Swagger UI when it draws
 */
export function docsPageHtml(prefix: string, title: string, outline: string): string {
  const s = `${prefix}/static`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="preload" href="${prefix}/json" as="fetch" crossorigin="anonymous">
<link rel="stylesheet" type="text/css" href="${s}/swagger-ui.css">
<link rel="stylesheet" type="text/css" href="${s}/index.css">
<link rel="icon" type="image/png" href="${s}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui">${outline}</div>
<script src="${s}/swagger-ui-bundle.js" charset="UTF-8"></script>
<script src="${s}/swagger-initializer.js" charset="UTF-8"></script>
</body>
</html>
`;
}

/**
 * The page's start-up script: Swagger UI on `#swagger-ui` with `config` (functions such as a
 * request interceptor are serialised as their source and run in the browser).
 * @param prefix the page's path; the document is at `${prefix}/json`
 * @param config Swagger UI options (docExpansion, filter, requestInterceptor...)
 */
export function docsPageScript(prefix: string, config: Record<string, unknown>): string {
  return `window.ui = SwaggerUIBundle(Object.assign({
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
}, ${serialise(config)}, { url: new URL(${JSON.stringify(`${prefix}/json`)}, window.location.href).href }));
`;
}
