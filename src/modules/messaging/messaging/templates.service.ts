/**
 * Message templates of an agency (docs/messaging.md "Templates"): the built-in default of every
 * kind and channel, the agency's overrides saved as numbered versions (a revert is a version that
 * restores the default), the preview with sample data, and the lookup the sender uses.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict, invalidParam, notFound } from '../../../core/errors.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { toIso } from '../../../lib/clock.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import { renderTemplate, validateTemplate, type Rendered } from './render.ts';
import { CHANNELS, MESSAGE_KINDS, PARTS, parseTemplateId, templateId, type Channel, type MessageKind, type TemplateContent } from './template-catalogue.ts';
import * as repo from './templates.repository.ts';
import type { ListTemplatesQuery, MessageTemplateDto, SaveTemplateInput, TemplatePartsInput } from './templates.schemas.ts';

/** The parts of a channel taken from a row or input (others dropped). */
function partsOf(channel: Channel, source: Record<string, unknown>): TemplateContent {
  const out: TemplateContent = {};
  for (const p of PARTS[channel]) if (typeof source[p] === 'string') out[p] = source[p] as string;
  return out;
}

function toDto(kind: MessageKind, channel: Channel, row: repo.TemplateVersionRow | undefined): MessageTemplateDto {
  const override = row !== undefined && !row.reverted;
  return {
    id: templateId(kind.key, channel),
    event: kind.key,
    channel,
    description: kind.description,
    trigger: kind.events,
    audience: kind.audience,
    source: override ? 'override' : 'default',
    version: row?.version ?? 0,
    parts: override ? partsOf(channel, row) : { ...kind.defaults[channel] },
    variables: Object.keys(kind.variables),
    updated_at: row ? toIso(row.created_at) : null,
    updated_by: row?.created_by ?? null,
  };
}

/** The template `id` or 404 "Template not found". */
function resolve(id: string) {
  const found = parseTemplateId(id);
  if (!found) throw notFound('Template');
  return found;
}

/**
 * The content the agency sends for a kind and channel: its latest override, else the default.
 * @param db connection or transaction (the event handler passes its transaction)
 */
export async function effectiveTemplate(db: DbOrTrx, agencyId: number, key: string, channel: Channel): Promise<TemplateContent> {
  const kind = MESSAGE_KINDS[key]!;
  const row = await repo.latestVersion(db, agencyId, key, channel);
  return row && !row.reverted ? partsOf(channel, row) : kind.defaults[channel];
}

/**
 * GET /api/messaging/templates: every kind and channel as the agency sends it, filtered by kind
 * and channel, paginated (ordered by kind, then email, push, sms).
 * @throws 403 for a caller of no agency
 */
export async function listTemplates(deps: AppDeps, auth: AuthContext, q: ListTemplatesQuery) {
  const agencyId = writeAgency(auth);
  const latest = new Map((await repo.latestVersions(deps.db, agencyId)).map((r) => [`${r.template_key}.${r.channel}`, r]));
  const all = Object.values(MESSAGE_KINDS)
    .filter((k) => q.event === undefined || k.key === q.event)
    .flatMap((k) => CHANNELS.filter((c) => q.channel === undefined || c === q.channel).map((c) => toDto(k, c, latest.get(templateId(k.key, c)))));
  return { rows: all.slice(q.offset, q.offset + q.limit), total: all.length };
}

/** GET /api/messaging/templates/{id}. @throws 403 no agency, 404 unknown id */
export async function getTemplate(deps: AppDeps, auth: AuthContext, id: string): Promise<MessageTemplateDto> {
  const agencyId = writeAgency(auth);
  const { kind, channel } = resolve(id);
  return toDto(kind, channel, await repo.latestVersion(deps.db, agencyId, kind.key, channel));
}

async function saveVersion(deps: AppDeps, auth: AuthContext, actor: Actor, id: string, content: TemplateContent | null): Promise<MessageTemplateDto> {
  const agencyId = writeAgency(auth);
  const { kind, channel } = resolve(id);
  const now = deps.clock.now();
  const latest = await repo.latestVersion(deps.db, agencyId, kind.key, channel);
  const version = (latest?.version ?? 0) + 1;
  try {
    await deps.db.transaction().execute(async (trx) => {
      const versionId = await repo.insertVersion(trx, {
        agency_id: agencyId, template_key: kind.key, channel, version, reverted: content === null,
        subject: content?.subject ?? null, mjml: content?.mjml ?? null, text_body: content?.text_body ?? null,
        title: content?.title ?? null, body: content?.body ?? null, created_by_user_id: auth.userId, created_at: now,
      });
      await recordActivity(trx, actor, now, {
        action: content === null ? 'message_template.revert' : 'message_template.update',
        resourceType: 'message_template', resourceId: versionId, agencyId, details: { template: id, version },
      });
    });
  } catch (err) {
    if (/unique|duplicate/i.test(String((err as Error).message))) throw conflict('The template was changed at the same time; try again');
    throw err;
  }
  return getTemplate(deps, auth, id);
}

/**
 * PUT /api/messaging/templates/{id}: saves a new version of the agency's override. Parts left out
 * keep their current text; every part is checked (Liquid syntax, MJML, variables).
 * @returns the template now in force
 * @throws 400 `Unknown template variables: ...`, `Invalid template: <part>: ...` (also when the trial
 *   render with sample values breaks a limit), a part the
 *   channel lacks (`Invalid or missing required parameter: <part>`), nothing to change (body);
 *   403 no agency; 404 unknown id; 409 a concurrent save
 */
export async function saveTemplate(deps: AppDeps, auth: AuthContext, actor: Actor, id: string, given: SaveTemplateInput): Promise<MessageTemplateDto> {
  const { kind, channel } = resolve(id);
  const current = await getTemplate(deps, auth, id);
  checkPartsBelong(channel, given);
  const content = { ...partsOf(channel, current.parts), ...partsOf(channel, given) };
  await validateTemplate(kind, channel, content);
  // A trial render with the sample values: a template over the render, time or memory limits is refused now, not at send time.
  await renderTemplate(channel, content, kind.variables);
  return saveVersion(deps, auth, actor, id, content);
}

/** 400 when a part is given that the channel does not have, or none is given. */
function checkPartsBelong(channel: Channel, given: TemplatePartsInput): void {
  const names = Object.keys(given);
  const wrong = names.find((n) => !(PARTS[channel] as readonly string[]).includes(n));
  if (wrong) throw invalidParam(wrong);
  if (names.length === 0) throw invalidParam('body');
}

/**
 * DELETE /api/messaging/templates/{id}: restores the built-in default (a new version marked
 * `reverted`; the history keeps every earlier version).
 * @throws 403 no agency, 404 unknown id, 409 nothing to revert (already the default)
 */
export async function revertTemplate(deps: AppDeps, auth: AuthContext, actor: Actor, id: string): Promise<MessageTemplateDto> {
  const current = await getTemplate(deps, auth, id);
  if (current.source === 'default') throw conflict('The template is already the default');
  return saveVersion(deps, auth, actor, id, null);
}

/** GET /api/messaging/templates/{id}/versions: the saved versions, newest first. @throws 403, 404 */
export async function templateVersions(deps: AppDeps, auth: AuthContext, id: string, page: { limit: number; offset: number }) {
  const agencyId = writeAgency(auth);
  const { kind, channel } = resolve(id);
  const { rows, total } = await repo.listVersions(deps.db, agencyId, kind.key, channel, page.limit, page.offset);
  return {
    rows: rows.map((r) => ({ version: r.version, reverted: r.reverted, parts: partsOf(channel, r), created_at: toIso(r.created_at), created_by: r.created_by })),
    total,
  };
}

/**
 * POST /api/messaging/templates/{id}/preview: renders the template in force, or the parts given
 * in the body laid over it (unsaved), with the kind's sample data. Sends nothing.
 * @returns the rendered parts and the sample values
 * @throws 400 as for a save; 403; 404
 */
export async function previewTemplate(deps: AppDeps, auth: AuthContext, id: string, given: SaveTemplateInput): Promise<Rendered & { sample: Record<string, string> }> {
  const { kind, channel } = resolve(id);
  const current = await getTemplate(deps, auth, id);
  if (Object.keys(given).length > 0) checkPartsBelong(channel, given);
  const content = { ...partsOf(channel, current.parts), ...partsOf(channel, given) };
  await validateTemplate(kind, channel, content);
  return { ...(await renderTemplate(channel, content, kind.variables)), sample: kind.variables };
}
