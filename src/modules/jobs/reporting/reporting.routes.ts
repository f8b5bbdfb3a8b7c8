/**
 * Tenant self-service routes (docs/tenant-reporting.md): triage flows (GET, PUT a new version,
 * preview), the walk, guided reports, on-call contacts and settings under /api/reporting; merge,
 * recall and links of a job under /api/jobs/{uuid}; the tenant's survey by signed link under
 * /api/surveys/link/{token} and the visit booking by signed link under /api/visits/link/{token}
 * (no account).
 */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, errorBody, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { Type } from 'typebox';
import { Job } from '../jobs/index.ts';
import { jobLinks, mergeJob, reopenAsRecall } from './job-links.service.ts';
import {
  BranchParams, Flow, FlowParams, FlowQuery, FlowVersion, JobLinks, ListReportsQuery, MergeBody, OnCall, OnCallBody, Preview, PreviewBody, RecallBody,
  Report, SaveFlowBody, Settings, SettingsBody, Step, SubmitBody, SubmitResult, SurveyAnswerBody, SurveyParams, SurveyView, VisitLinkBody, VisitLinkView, WalkBody,
} from './reporting.schemas.ts';
import {
  getFlow, getReport, getSettings, listFlows, listFlowVersions, listOnCall, listReports, previewFlow, putSettings, saveFlow, setOnCall, submitReport, walkFlow,
} from './reporting.service.ts';
import { answerSurvey, SURVEY_REFUSALS, viewSurvey } from './surveys.service.ts';
import { actVisitLink, VISIT_LINK_REFUSALS, viewVisitLink } from './visit-links.service.ts';

const TAGS = ['reporting'];

/** A refused survey or visit link: the error envelope with 400, 409 or 410, never cached. */
function sendRefusal(reply: FastifyReply, r: { status: 400 | 409 | 410; message: string }) {
  return reply.status(r.status).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(errorBody(r.message));
}

/** Registers the reporting routes. */
export function reportingRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/reporting/flows: the agency's triage flows at their current versions. */
    app.get('/api/reporting/flows', {
      config: { permission: 'api.reporting.report' },
      schema: {
        tags: TAGS,
        summary: "List the agency's triage flows",
        description: 'Each flow with its current version and tree (questions, advice, emergency instructions, job presets). An agency without flows gets the UK set on first use.',
        response: responses(ListEnvelope(Flow), [401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listFlows(deps, requireAuth(request));
        return list(rows, rows.length, 'Flows retrieved');
      },
    });

    /** GET /api/reporting/flows/{code}: one flow (current version, or ?version=). */
    app.get('/api/reporting/flows/:code', {
      config: { permission: 'api.reporting.report' },
      schema: { tags: TAGS, summary: 'Read a triage flow', params: FlowParams, querystring: FlowQuery, response: responses(DataEnvelope(Flow), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getFlow(deps, requireAuth(request), request.params.code, request.query.version), 'Flow retrieved'),
    });

    /** GET /api/reporting/flows/{code}/versions: the versions of a flow. */
    app.get('/api/reporting/flows/:code/versions', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: { tags: TAGS, summary: 'List the versions of a triage flow', params: FlowParams, response: responses(ListEnvelope(FlowVersion), [400, 401, 403, 404, 429]) },
      handler: async (request) => {
        const rows = await listFlowVersions(deps, requireAuth(request), request.params.code);
        return list(rows, rows.length, 'Versions retrieved');
      },
    });

    /** PUT /api/reporting/flows/{code}: saves a new version (or creates the flow). */
    app.put('/api/reporting/flows/:code', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: {
        tags: TAGS,
        summary: 'Save a triage flow as a new version',
        description:
          'The tree is checked (unique ids, known start, 2 to 10 options per question, no cycle, every node reachable, presets with a known trade and job type, emergencies priority 1); ' +
          'a problem is 400 naming it. Saving makes a new version; reports keep the version they walked. 201 when the code is new. Needs a CSRF token.',
        params: FlowParams,
        body: SaveFlowBody,
        response: { ...responses(DataEnvelope(Flow), [400, 401, 403, 404, 429], 201), 200: DataEnvelope(Flow) },
      },
      handler: async (request, reply) => {
        const r = await saveFlow(deps, requireAuth(request), actorOf(request), request.params.code, request.body);
        void (reply as unknown as FastifyReply).status(r.created ? 201 : 200);
        return ok(r.flow, r.created ? 'Flow created' : `Flow saved as version ${r.flow.version}`);
      },
    });

    /** POST /api/reporting/flows/preview: checks and walks a draft tree; writes nothing. */
    app.post('/api/reporting/flows/preview', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: {
        tags: TAGS,
        summary: 'Preview a draft triage flow',
        description: 'Returns the problems of the tree (empty when sound) and, for a sound tree, the step the answers reach, as a tenant would see it. Nothing is saved. Needs a CSRF token.',
        body: PreviewBody,
        response: responses(DataEnvelope(Preview), [400, 401, 403, 429]),
      },
      handler: async (request) => ok(await previewFlow(deps, requireAuth(request), request.body), 'Preview'),
    });

    /** POST /api/reporting/walk: the next question or the outcome for the answers so far. */
    app.post('/api/reporting/walk', {
      config: { permission: 'api.reporting.report' },
      schema: {
        tags: TAGS,
        summary: 'Walk a triage flow',
        description:
          'Give the answers so far (from the start); get the next question (with its self-help) or the outcome: advice, an emergency instruction (show it at once, then submit), or a job preset. ' +
          'At a job outcome with a known property, duplicates lists the open jobs of the same trade there and recall_candidates the jobs completed within the recall window. Writes nothing. Needs a CSRF token.',
        body: WalkBody,
        response: responses(DataEnvelope(Step), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await walkFlow(deps, requireAuth(request), request.body), 'Step'),
    });

    /** POST /api/reporting/reports: submits a walked report. */
    app.post('/api/reporting/reports', {
      config: { permission: 'api.reporting.report' },
      schema: {
        tags: TAGS,
        summary: 'Submit a guided report',
        description:
          'The answers must reach an outcome. Advice: recorded as a deflection, no job. Emergency: a priority 1 job and an alert to the branch\'s on-call contact; the instruction is returned. ' +
          'Job: a job with the preset trade, job type and priority (photos_requested: what to upload); or add_to_job_uuid (one of the walk\'s duplicates) adds the report to that job; ' +
          'recall_of_job_uuid (a recall candidate) makes the new job a recall. The report records the flow version and the answers. Needs a CSRF token.',
        body: SubmitBody,
        response: responses(DataEnvelope(SubmitResult), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const r = await submitReport(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        const message = r.report.outcome === 'advice' ? 'Report recorded: no repair needed' : r.report.outcome === 'emergency' ? 'Emergency reported' : r.report.outcome === 'added_to_job' ? 'Report added to the open job' : 'Repair reported';
        return ok(r, message);
      },
    });

    /** GET /api/reporting/reports: the agency's guided reports. */
    app.get('/api/reporting/reports', {
      config: { permission: 'api.reporting.reports.view' },
      schema: {
        tags: TAGS,
        summary: 'List guided reports',
        description: 'Newest first; filters outcome (advice = deflected), flow_code, from_date/to_date (London dates).',
        querystring: ListReportsQuery,
        response: responses(ListEnvelope(Report), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listReports(deps, requireAuth(request), request.query);
        return list(rows, total, 'Reports retrieved');
      },
    });

    /** GET /api/reporting/reports/{uuid}: one guided report. */
    app.get('/api/reporting/reports/:uuid', {
      config: { permission: 'api.reporting.reports.view' },
      schema: { tags: TAGS, summary: 'Read a guided report', params: UuidParams, response: responses(DataEnvelope(Report), [400, 401, 403, 404, 429]) },
      handler: async (request) => ok(await getReport(deps, requireAuth(request), request.params.uuid), 'Report retrieved'),
    });

    /** GET /api/reporting/on-call: the branches' on-call contacts. */
    app.get('/api/reporting/on-call', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: { tags: TAGS, summary: "List the branches' on-call contacts", response: responses(ListEnvelope(OnCall), [401, 403, 429]) },
      handler: async (request) => {
        const rows = await listOnCall(deps, requireAuth(request));
        return list(rows, rows.length, 'On-call contacts retrieved');
      },
    });

    /** PUT /api/reporting/on-call/{branch_uuid}: sets a branch's on-call contact. */
    app.put('/api/reporting/on-call/:branch_uuid', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: {
        tags: TAGS,
        summary: "Set a branch's on-call contact",
        description: 'Name, phone and e-mail of whoever is alerted when a guided report reaches an emergency (without one, the branch\'s agents are). Needs a CSRF token.',
        params: BranchParams,
        body: OnCallBody,
        response: responses(DataEnvelope(OnCall), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await setOnCall(deps, requireAuth(request), actorOf(request), request.params.branch_uuid, request.body), 'On-call contact saved'),
    });

    /** GET /api/reporting/settings: recall window and survey link lifetime. */
    app.get('/api/reporting/settings', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: { tags: TAGS, summary: 'Read the reporting settings', response: responses(DataEnvelope(Settings), [401, 403, 429]) },
      handler: async (request) => ok(await getSettings(deps, requireAuth(request)), 'Settings retrieved'),
    });

    /** PUT /api/reporting/settings: changes them. */
    app.put('/api/reporting/settings', {
      config: { permission: 'api.reporting.flows.manage' },
      schema: { tags: TAGS, summary: 'Change the reporting settings', description: 'Partial: the fields sent change. Needs a CSRF token.', body: SettingsBody, response: responses(DataEnvelope(Settings), [400, 401, 403, 429]) },
      handler: async (request) => ok(await putSettings(deps, requireAuth(request), actorOf(request), request.body), 'Settings saved'),
    });

    /** POST /api/jobs/{uuid}/merge: merges this duplicate into another job. */
    app.post('/api/jobs/:uuid/merge', {
      config: { permission: 'api.jobs.update.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Merge a duplicate job into another',
        description: 'The job (the duplicate) is cancelled with a note naming the job kept; the job kept gets a note naming it. Both keep their history, notes and files; GET /api/jobs/{uuid}/links shows the merge. Same property only. Needs a CSRF token.',
        params: UuidParams,
        body: MergeBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await mergeJob(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Jobs merged'),
    });

    /** POST /api/jobs/{uuid}/recall: reopens a completed repair as a recall. */
    app.post('/api/jobs/:uuid/recall', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Reopen a completed repair as a recall',
        description: 'Within the agency\'s recall_days of completion (GET /api/reporting/settings): a new job "Recall: ..." at the same property, linked to the original; it lowers the contractor\'s first-time-fix rate. Tenants: their own jobs. Later: 409 (report a new repair). Needs a CSRF token.',
        params: UuidParams,
        body: RecallBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const job = await reopenAsRecall(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.reason);
        void reply.status(201);
        return ok(job, 'Recall raised');
      },
    });

    /** GET /api/jobs/{uuid}/links: recalls, merges, reports and survey of a job. */
    app.get('/api/jobs/:uuid/links', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Jobs linked to a job',
        description: 'What it recalls or was merged into, its recalls and merged duplicates; for staff also its guided reports and its survey answer.',
        params: UuidParams,
        response: responses(DataEnvelope(JobLinks), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await jobLinks(deps, requireAuth(request), request.params.uuid), 'Links retrieved'),
    });

    /** GET /api/surveys/link/{token}: what the survey is about (no account). */
    app.get('/api/surveys/link/:token', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "The tenant's satisfaction survey (signed link, no account)",
        description: 'The job, property, contractor and when the link expires. Looking does not answer. Invalid or tampered link 400, answered 409, expired 410.',
        params: SurveyParams,
        response: responses(DataEnvelope(SurveyView), [400, 409, 410, 429]),
      },
      handler: async (request, reply) => {
        const r = await viewSurvey(deps, request.params.token);
        if (!r.view) return sendRefusal(reply as unknown as FastifyReply, SURVEY_REFUSALS[r.refusal]);
        void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return ok(r.view, 'Survey');
      },
    });

    /** POST /api/surveys/link/{token}: the answer; the link is used up. */
    app.post('/api/surveys/link/:token', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "Answer the satisfaction survey (signed link, no account)",
        description: 'rating 1 (very poor) to 5 (very good) and an optional comment. Works once; refusals as for GET.',
        params: SurveyParams,
        body: SurveyAnswerBody,
        response: responses(DataEnvelope(Type.Object({ rating: Type.Integer() })), [400, 409, 410, 429]),
      },
      handler: async (request, reply) => {
        const r = await answerSurvey(deps, request.params.token, request.body);
        if (r.refusal) return sendRefusal(reply as unknown as FastifyReply, SURVEY_REFUSALS[r.refusal]);
        return ok({ rating: request.body.rating }, 'Thank you for your answer');
      },
    });

    /** GET /api/visits/link/{token}: the tenant's visit page (no account). */
    app.get('/api/visits/link/:token', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "The tenant's visit booking (signed link, no account)",
        description: "The job, the tenant's windows, the contractor's free slots and the booked visit. Looking does not use the link. Invalid or tampered link 400, used or replaced 409, expired 410.",
        params: SurveyParams,
        response: responses(DataEnvelope(VisitLinkView), [400, 409, 410, 429]),
      },
      handler: async (request, reply) => {
        const r = await viewVisitLink(deps, request.params.token);
        if (!r.view) return sendRefusal(reply as unknown as FastifyReply, VISIT_LINK_REFUSALS[r.refusal]);
        void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return ok(r.view, 'Visit');
      },
    });

    /** POST /api/visits/link/{token}: the tenant's windows or pick of a free slot; the link is used up. */
    app.post('/api/visits/link/:token', {
      config: { permission: 'public' },
      schema: {
        tags: TAGS,
        summary: "Give windows or pick a free slot (signed link, no account)",
        description:
          "action windows: the tenant's availability windows (the rules of PUT /api/jobs/{uuid}/visit/windows); action choose: one of the contractor's free slots (as POST /api/jobs/{uuid}/visit/choice). " +
          'Works once; a refused action (400, 409) leaves the link usable. Refusals of the link as for GET.',
        params: SurveyParams,
        body: VisitLinkBody,
        response: responses(DataEnvelope(VisitLinkView), [400, 409, 410, 429]),
      },
      handler: async (request, reply) => {
        const r = await actVisitLink(deps, request.params.token, request.body, request.ip);
        if (!r.view) return sendRefusal(reply as unknown as FastifyReply, VISIT_LINK_REFUSALS[r.refusal]);
        void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return ok(r.view, request.body.action === 'windows' ? 'Thank you: the contractor will book a slot inside your windows' : 'Your visit is booked');
      },
    });
  };
}
