/**
 * Branch SLA response-time rules (spec 4.7, 4.8, 2.3a): create or update (POST), remove (DELETE)
 * and list (GET) at /api/agents/branch-sla-response-times. Meaning of a rule: docs/sla-rules.md.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DeleteSlaRuleBody, ListSlaRulesQuery, SlaRule, UpsertSlaRuleBody } from './sla-rules.schemas.ts';
import { deleteSlaRule, listSlaRules, upsertSlaRule } from './sla-rules.service.ts';

const PATH = '/api/agents/branch-sla-response-times';
const PERMISSION = 'api.agents.branch_sla_response_times.manage';
const REACH =
  'SysOps reach every agency, agency administrators their agency, agents only their own branch; ' +
  'anything else is the same 404 as a missing record.';

/** Registers the SLA rule routes. */
export function slaRulesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET: one page of the rules the caller reaches, optionally of one branch. */
    app.get(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['agents'],
        summary: 'List branch SLA response-time rules',
        description: `Ordered by branch name, then creation. ${REACH}`,
        querystring: ListSlaRulesQuery,
        response: responses(ListEnvelope(SlaRule), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listSlaRules(deps, requireAuth(request), request.query);
        return list(rows, total, 'SLA rules retrieved');
      },
    });

    /** POST: creates a rule, or updates the rule named by `uuid` (spec 4.7). */
    app.post(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['agents'],
        summary: 'Create or update a branch SLA response-time rule',
        description:
          'Without uuid: creates a rule; branch_uuid, job_status_from_id, job_status_to_id, date_field_to_track, ' +
          'date_field_to_compare and minimum_response_days are required, job_type_id, job_priority (null = any) and ' +
          'description optional. With uuid: updates that rule; fields left out keep their values. The two statuses ' +
          `and the two date fields must differ. Answers 200 with the stored rule. ${REACH} Needs a CSRF token.`,
        body: UpsertSlaRuleBody,
        response: responses(DataEnvelope(SlaRule), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rule, created } = await upsertSlaRule(deps, requireAuth(request), actorOf(request), request.body);
        return ok(rule, created ? 'SLA rule created' : 'SLA rule updated');
      },
    });

    /** DELETE: removes a rule by uuid (spec 4.8). */
    app.delete(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['agents'],
        summary: 'Remove a branch SLA response-time rule',
        description: `Body: uuid and csrf_token (or the X-CSRF-Token header). ${REACH}`,
        body: DeleteSlaRuleBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await deleteSlaRule(deps, requireAuth(request), actorOf(request), request.body.uuid);
        return done('SLA rule deleted');
      },
    });
  };
}
