/** GET /api/workflow-engine/workflows (spec 4.15): reads the connected n8n instance. */
import { Type, type TSchema } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { responses } from '../../../http/envelope.ts';
import type { App } from '../../../http/route-types.ts';
import { WorkflowsEnvelope, WorkflowsQuery } from './workflow-engine.schemas.ts';
import { readWorkflows, STATS_MAX_PAGES, STATS_PAGE_SIZE } from './workflow-engine.service.ts';

const EngineFailed = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { description: 'The workflow engine is unreachable, too slow, or answered non-2xx or with an unexpected body' },
);

const RESPONSES: Record<number, TSchema> = { ...responses(WorkflowsEnvelope, [400, 401, 403, 404, 429, 503]), 502: EngineFailed };

/** Registers the workflow-engine route. */
export function workflowEngineRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    app.get('/api/workflow-engine/workflows', {
      config: { permission: 'page.settings.configuration' },
      schema: {
        tags: ['workflow automation'],
        summary: 'Workflows, executions and statistics of the connected workflow engine',
        description:
          'action=list: one page of workflows (data.workflows, data.next_cursor; pass it back as cursor). ' +
          'action=active: the same, active workflows only. action=get&id=: one workflow with node_count (404 "Workflow not found"). ' +
          'action=executions: one page of executions, newest first, optionally of workflow id and of one status. ' +
          `action=stats: counts by status and the success rate over the most recent executions (at most ${STATS_MAX_PAGES} ` +
          `pages of ${STATS_PAGE_SIZE}; data.stats.truncated says when more exist), optionally of workflow id. ` +
          'A parameter an action does not take is 400. 503 when CARETAKER_WORKFLOW_ENGINE_URL is not set; 502 when the engine ' +
          'is unreachable, slower than CARETAKER_WORKFLOW_ENGINE_TIMEOUT_MS, answers non-2xx or with an unexpected body.',
        querystring: WorkflowsQuery,
        response: RESPONSES,
      },
      handler: async (request) => {
        const { message, data } = await readWorkflows(deps, request.query);
        return { success: true as const, message, data };
      },
    });
  };
}
