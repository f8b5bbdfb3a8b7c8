/**
 * Hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks"):
 * GET /api/hazards/categories, GET /api/hazards/breaches, GET and PUT /api/hazards/settings, GET and PUT /api/jobs/{uuid}/hazard,
 * POST /api/jobs/{uuid}/hazard/milestones, POST /api/jobs/{uuid}/hazard/summary, and the evidence pack
 * GET /api/jobs/{uuid}/evidence-pack (docs/compliance.md "Evidence pack").
 */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { alsoSentAs, DataEnvelope, list, ListEnvelope, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  AddressParams, EvidencePack, EvidenceQuery, Hazard, HazardBreach, HazardBreachesQuery, HazardCategory, HazardSettings, JobParams, MilestoneBody, PropertyScope, PropertyScopeBody,
  SetHazardBody, SummaryBody, SummaryPostedBody, UpdateHazardSettingsBody,
} from './hazards.schemas.ts';
import { evidencePack } from './evidence-pack.ts';
import {
  getHazard, getHazardSettings, getPropertyScope, listCategories, listHazardBreaches, postSummary, recordMilestone, sendSummary, setHazard, setPropertyScope, summaryLetterPdf,
  updateHazardSettings,
} from './hazards.service.ts';

const VISIBILITY = 'Jobs the caller may see (the jobs list\'s scope); writes need staff who may write the job and a CSRF token.';

/** Registers the hazard routes. */
export function hazardsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/hazards/categories: the 29 HHSRS hazards. */
    app.get('/api/hazards/categories', {
      config: { permission: 'api.hazards.view' },
      schema: {
        tags: ['hazards'],
        summary: 'The HHSRS hazard categories',
        response: responses(ListEnvelope(HazardCategory), [401, 403, 429]),
      },
      handler: async () => {
        const rows = listCategories();
        return list(rows, rows.length, 'Hazard categories retrieved');
      },
    });

    /** GET /api/hazards/breaches: statutory clocks at risk and breached. */
    app.get('/api/hazards/breaches', {
      config: { permission: 'api.hazards.view' },
      schema: {
        tags: ['hazards'],
        summary: 'Statutory hazard clocks at risk or breached',
        description: `Statutory clocks of hazard jobs by deadline; state (default at_risk and breached), severity, limit, offset. ${VISIBILITY}`,
        querystring: HazardBreachesQuery,
        response: responses(ListEnvelope(HazardBreach), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listHazardBreaches(deps, requireAuth(request), request.query);
        return list(rows, total, 'Hazard clocks retrieved');
      },
    });

    /** GET /api/jobs/{uuid}/hazard: the job's hazard and statutory clocks. */
    app.get('/api/jobs/:uuid/hazard', {
      config: { permission: 'api.hazards.view' },
      schema: {
        tags: ['hazards'],
        summary: 'The hazard of a job with its statutory clocks',
        description: `404 "Hazard not found" when the job carries none. ${VISIBILITY}`,
        params: JobParams,
        response: responses(DataEnvelope(Hazard), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getHazard(deps, requireAuth(request), request.params.uuid), 'Hazard retrieved'),
    });

    /** PUT /api/jobs/{uuid}/hazard: marks the job as carrying a hazard, or changes it. */
    app.put('/api/jobs/:uuid/hazard', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'Set the hazard of a job',
        description:
          'category (HHSRS code), severity (emergency or significant), description, reported_at (the moment of awareness; default the tenant\'s report), ' +
          'awareness_reason (required when reported_at is not the report), further_works_required, further_works_reason (the 12-week limit applies). ' +
          `Answers 201 for a new hazard, 200 for a change; the statutory clocks follow at once (none for a property out of scope). ${VISIBILITY}`,
        params: JobParams,
        body: SetHazardBody,
        response: { ...responses(DataEnvelope(Hazard), [400, 401, 403, 404, 429], 201), 200: DataEnvelope(Hazard) },
      },
      handler: async (request, reply) => {
        const { hazard, created } = await setHazard(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body);
        void (reply as unknown as FastifyReply).status(created ? 201 : 200);
        return ok(hazard, created ? 'Hazard recorded' : 'Hazard updated');
      },
    });

    /** POST /api/jobs/{uuid}/hazard/milestones: records a milestone and stops its clock. */
    app.post('/api/jobs/:uuid/hazard/milestones', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'Record a milestone of a hazard',
        description:
          'made_safe (emergency); investigated, works_started (relevant safety work done), further_works_started, works_completed (significant); ' +
          `at (when it happened) defaults to now and decides the clock; the request's time is kept as when it was recorded. 409 when already recorded or out of order. ${VISIBILITY}`,
        params: JobParams,
        body: MilestoneBody,
        response: responses(DataEnvelope(Hazard), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await recordMilestone(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Milestone recorded'),
    });

    /** POST /api/jobs/{uuid}/hazard/summary: sends the written summary to the tenant. */
    app.post('/api/jobs/:uuid/hazard/summary', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'Send the written summary of the investigation to the tenant',
        description:
          'findings and actions go into the template hazard.summary (the agency may override it), sent to the job\'s tenant through messaging whatever their consents ' +
          'and preferences (a statutory notice); the rendered copy is kept on the job. The summary clock stops when it reaches the tenant: e-mail or SMS sent, or a letter posted. ' +
          `409 before the investigation, when already sent, or without a tenant. ${VISIBILITY}`,
        params: JobParams,
        body: SummaryBody,
        response: responses(DataEnvelope(Hazard), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await sendSummary(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Written summary sent'),
    });

    /** GET /api/jobs/{uuid}/hazard/summary/letter: the written summary as a PDF letter to the property. */
    app.get('/api/jobs/:uuid/hazard/summary/letter', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'The written summary as a printable letter',
        description: `An A4 PDF addressed to the tenant at the property, for posting when neither e-mail nor SMS reached them. 409 before the summary is issued. ${VISIBILITY}`,
        params: JobParams,
        response: responses(alsoSentAs(DataEnvelope(Hazard), ['application/pdf']), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request, reply) => {
        const r = await summaryLetterPdf(deps, requireAuth(request), request.params.uuid);
        void reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${r.fileName}"`);
        return reply.send(r.body);
      },
    });

    /** POST /api/jobs/{uuid}/hazard/summary/posted: records the letter's posting. */
    app.post('/api/jobs/:uuid/hazard/summary/posted', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'Record that the written summary was posted',
        description: `posted_at (default now; not in the future, not before the summary was issued): the summary reached the tenant by post and its clock stops then. 409 before the summary is issued or once it was delivered. ${VISIBILITY}`,
        params: JobParams,
        body: SummaryPostedBody,
        response: responses(DataEnvelope(Hazard), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await postSummary(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Summary posting recorded'),
    });

    /** GET /api/hazards/properties/{uuid}/scope: the Awaab's Law scope of a property. */
    app.get('/api/hazards/properties/:uuid/scope', {
      config: { permission: 'api.hazards.view' },
      schema: {
        tags: ['hazards'],
        summary: 'The Awaab\'s Law scope of a property',
        description: 'tenure (social or private_rented, default private_rented), nation (stated or from the postcode) and the scope a hazard there runs under. 404 for another agency\'s property; 403 for SysOps.',
        params: AddressParams,
        response: responses(DataEnvelope(PropertyScope), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getPropertyScope(deps, requireAuth(request), request.params.uuid), 'Property scope retrieved'),
    });

    /** PUT /api/hazards/properties/{uuid}/scope: states a property's tenure and nation. */
    app.put('/api/hazards/properties/:uuid/scope', {
      config: { permission: 'api.hazards.manage' },
      schema: {
        tags: ['hazards'],
        summary: 'State the Awaab\'s Law scope of a property',
        description: 'tenure (social or private_rented), nation (null: from the postcode); the clocks of the property\'s hazards follow at once. Needs a CSRF token.',
        params: AddressParams,
        body: PropertyScopeBody,
        response: responses(DataEnvelope(PropertyScope), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await setPropertyScope(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Property scope updated'),
    });

    /** GET /api/jobs/{uuid}/evidence-pack: the job's timeline as JSON, PDF or ZIP. */
    app.get('/api/jobs/:uuid/evidence-pack', {
      config: { permission: 'api.jobs.evidence-pack.view' },
      schema: {
        tags: ['hazards'],
        summary: 'The evidence pack of a job',
        description:
          'Every report, status move, visit, note, photo, document, message, SLA and statutory clock event of the job, oldest first, with London times: ' +
          'format=json (default), pdf, or zip (the PDF, timeline.json and the job\'s files under files/). Staff who may write the job (it includes internal notes). ' +
          'Logged as job.evidence_pack.',
        params: JobParams,
        querystring: EvidenceQuery,
        response: responses(alsoSentAs(DataEnvelope(EvidencePack), ['application/pdf', 'application/zip']), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const format = request.query.format ?? 'json';
        const r = await evidencePack(deps, requireAuth(request), actorOf(request), request.params.uuid, format);
        if ('pack' in r) return ok(r.pack, 'Evidence pack retrieved');
        void reply.header('content-type', format === 'pdf' ? 'application/pdf' : 'application/zip').header('content-disposition', `attachment; filename="${r.fileName}"`);
        return reply.send(r.body);
      },
    });

    /** GET /api/hazards/settings: the agency's hazard settings. */
    app.get('/api/hazards/settings', {
      config: { permission: 'api.hazards.view' },
      schema: {
        tags: ['hazards'],
        summary: "The agency's hazard settings",
        description: 'private_rented_policy: the agency applies the timescales to its private rented properties in England as policy; works_working_days: deprecated, no longer a clock. 403 for SysOps (no agency).',
        response: responses(DataEnvelope(HazardSettings), [401, 403, 429]),
      },
      handler: async (request) => ok(await getHazardSettings(deps, requireAuth(request)), 'Hazard settings retrieved'),
    });

    /** PUT /api/hazards/settings: changes the agency's hazard settings. */
    app.put('/api/hazards/settings', {
      config: { permission: 'api.hazards.settings.manage' },
      schema: {
        tags: ['hazards'],
        summary: "Change the agency's hazard settings",
        description:
          'private_rented_policy (boolean): the clocks of the agency\'s private rented properties in England start or stop at once; works_working_days (1 to 260): deprecated, kept, no longer a clock. ' +
          'Agency admins. Needs a CSRF token.',
        body: UpdateHazardSettingsBody,
        response: responses(DataEnvelope(HazardSettings), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await updateHazardSettings(deps, requireAuth(request), actorOf(request), request.body), 'Hazard settings updated'),
    });
  };
}
