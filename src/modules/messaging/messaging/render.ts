/**
 * Template rendering (docs/messaging.md "Templates"): Liquid (liquidjs) for the variables, MJML
 * (mjml) for responsive e-mail HTML. MJML is loaded on first use (its import costs about half a
 * second) and each MJML source is compiled once and cached, with the Liquid tags left in; Liquid
 * then fills the variables per message, HTML-escaped in the e-mail HTML. Liquid has no file
 * system here: the tags that read other templates (`include`, `render`, `layout`) are refused when a
 * template is parsed (400 "Invalid template: ..."), and it runs under parse, render and memory limits.
 * liquidjs too is loaded at the first template, so a server that sends no message never holds it.
 */
import type { Liquid, Template } from 'liquidjs';
import { AppError } from '../../../core/errors.ts';
import { PARTS, nestVariables, type Channel, type MessageKind, type TemplateContent, type TemplatePart } from './template-catalogue.ts';

const LIMITS = { templates: {}, strictFilters: true, ownPropertyOnly: true, parseLimit: 100_000, renderLimit: 1_000, memoryLimit: 10_000_000 };
/** Tags that read another template by name: a stored template stands alone. */
export const REFUSED_TAGS = ['include', 'render', 'layout'] as const;

/** The two Liquid engines: `plain` for subjects, push, SMS and plain text (no escaping), `html` for e-mails' HTML (every output escaped). */
interface Engines {
  plain: Liquid;
  html: Liquid;
}
let enginesModule: Promise<Engines> | undefined;

/** The engines under LIMITS without the tags that read other templates, made at the first template. */
function engines(): Promise<Engines> {
  enginesModule ??= import('liquidjs').then(({ Liquid, Tag }) => {
    /** Replaces a tag that reads other templates: parsing a template that uses it fails. */
    class RefusedTag extends Tag {
      constructor(...args: ConstructorParameters<typeof Tag>) {
        super(...args);
        throw new Error(`the ${args[0].name} tag is not allowed`);
      }

      *render(): Generator<unknown, void, unknown> {}
    }
    const engine = (options: Record<string, unknown>) => {
      const liquid = new Liquid({ ...LIMITS, ...options });
      for (const name of REFUSED_TAGS) liquid.registerTag(name, RefusedTag);
      return liquid;
    };
    return { plain: engine({}), html: engine({ outputEscape: 'escape' }) };
  });
  return enginesModule;
}

/** Largest number of compiled sources kept (MJML and Liquid caches). */
const CACHE_MAX = 500;
const mjmlCache = new Map<string, Promise<string>>();
const parsed = new Map<string, Template[]>();

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

type Mjml2Html = (src: string, opts: Record<string, unknown>) => Promise<{ html: string; errors: Array<{ formattedMessage?: string; message: string }> }>;
let mjmlModule: Promise<Mjml2Html> | undefined;

/**
 * Compiles an MJML document to HTML (cached by source), Liquid tags kept as text.
 * @throws AppError 400 "Invalid template: mjml: <first MJML error>"
 */
export function compileMjml(source: string): Promise<string> {
  // @ts-expect-error mjml ships no type declarations; the one function used is typed above.
  mjmlModule ??= import('mjml').then((m) => (m.default ?? m) as unknown as Mjml2Html);
  const job = remember(mjmlCache, source, async () => {
    const mjml2html = await mjmlModule!;
    let out: Awaited<ReturnType<Mjml2Html>>;
    try {
      out = await mjml2html(source, { validationLevel: 'soft', fonts: {}, keepComments: false });
    } catch (err) {
      throw new AppError('bad_request', `Invalid template: mjml: ${err instanceof Error ? err.message.split('\n')[0] : 'not MJML'}`);
    }
    if (out.errors.length > 0) throw new AppError('bad_request', `Invalid template: mjml: ${out.errors[0]!.message}`);
    return out.html;
  });
  job.catch(() => mjmlCache.delete(source));
  return job;
}

/** Parses one Liquid source with the given engine (cached). @throws AppError 400 naming the part */
function parse(engine: Liquid, escaped: boolean, part: TemplatePart, source: string): Template[] {
  const key = `${escaped ? 'h' : 'p'}:${source}`;
  try {
    return remember(parsed, key, () => engine.parse(source));
  } catch (err) {
    throw new AppError('bad_request', `Invalid template: ${part}: ${err instanceof Error ? err.message : 'syntax error'}`);
  }
}

/**
 * Checks a template's parts for a kind and channel: every part present and non-blank, Liquid
 * that parses, MJML that compiles, and only the kind's documented variables.
 * @throws AppError 400 `Invalid or missing required parameter: <part>`, `Invalid template: ...`
 *   or `Unknown template variables: a.b, c` (every unknown name, sorted)
 */
export async function validateTemplate(kind: MessageKind, channel: Channel, content: TemplateContent): Promise<void> {
  const unknown = new Set<string>();
  const { plain, html } = await engines();
  for (const part of PARTS[channel]) {
    const source = content[part];
    if (source === undefined || source.trim() === '') throw new AppError('invalid_parameter', part);
    const engine = part === 'mjml' ? html : plain;
    const templates = parse(engine, part === 'mjml', part, source);
    for (const name of engine.globalFullVariablesSync(templates)) {
      if (!(name in kind.variables)) unknown.add(name);
    }
  }
  if (unknown.size > 0) throw new AppError('bad_request', `Unknown template variables: ${[...unknown].sort().join(', ')}`);
  if (channel === 'email') await compileMjml(content.mjml!);
}

/** A rendered message: e-mail {subject, html, text}, push {title, body}, SMS {text}. */
export type Rendered = { subject?: string; html?: string; text?: string; title?: string; body?: string };

/**
 * Renders a template with values for the kind's variables (missing ones render empty).
 * @param vars flat `a.b` -> value map
 * @throws AppError 400 `Invalid template: ...` for a template that does not parse, compile or render
 *   (render, memory or time limits)
 */
export async function renderTemplate(channel: Channel, content: TemplateContent, vars: Record<string, string | null>): Promise<Rendered> {
  try {
    return await renderParts(channel, content, vars);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('bad_request', `Invalid template: ${err instanceof Error ? err.message : 'does not render'}`);
  }
}

async function renderParts(channel: Channel, content: TemplateContent, vars: Record<string, string | null>): Promise<Rendered> {
  const scope = nestVariables(vars);
  const { plain, html } = await engines();
  const text = async (part: TemplatePart) => (await plain.render(parse(plain, false, part, content[part] ?? ''), scope)) as string;
  if (channel === 'email') {
    const compiled = await compileMjml(content.mjml ?? '');
    return {
      subject: (await text('subject')).replace(/\s+/g, ' ').trim(),
      html: (await html.render(parse(html, true, 'mjml', compiled), scope)) as string,
      text: await text('text_body'),
    };
  }
  if (channel === 'push') return { title: (await text('title')).trim(), body: (await text('body')).trim() };
  return { text: (await text('text_body')).trim() };
}
