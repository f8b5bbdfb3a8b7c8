/**
 * Agents area routes: branch sharing (spec 4.11), the agents of branches and job assignment to an
 * agent (docs/agents.md). Rules live in branch-agents.service.ts.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Agent, AgentsQuery, Assignment, AssignmentBody, Sharing, SharingBody, SharingQuery } from './branch-agents.schemas.ts';
import * as service from './branch-agents.service.ts';

const TAGS = ['agents'];

/** Registers the agents routes. */
export function branchAgentsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/agents/branch-sharing: the sharing flag of the caller's branch. */
    app.get('/api/agents/branch-sharing', {
      config: { permission: 'api.agents.branch_sharing' },
      schema: {
        tags: TAGS,
        summary: "Read the sharing flag of the caller's branch",
        description: "A caller without a branch must name one with branch_uuid (400 otherwise); only callers holding api.admin.branches.manage may name a branch other than their own (404 otherwise).",
        querystring: SharingQuery,
        response: responses(DataEnvelope(Sharing), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await service.getSharing(deps, requireAuth(request), request.query.branch_uuid), 'Branch sharing retrieved'),
    });

    /** POST /api/agents/branch-sharing (spec 4.11): turns sharing of the caller's branch on or off. */
    app.post('/api/agents/branch-sharing', {
      config: { permission: 'api.agents.branch_sharing' },
      schema: {
        tags: TAGS,
        summary: "Enable or disable branch sharing for the caller's branch",
        description:
          "When enabled, agents of the agency's other branches see (but cannot edit) this branch's jobs; never another agency's. " +
          'branch_uuid as for the read. A closed branch: 409.',
        body: SharingBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        done(await service.setSharing(deps, requireAuth(request), actorOf(request), request.body.enabled, request.body.branch_uuid)),
    });

    /** GET /api/agents: the agents of the agency's branches. */
    app.get('/api/agents', {
      config: { permission: 'api.agents.view' },
      schema: {
        tags: TAGS,
        summary: 'List agents',
        description: "Accounts attached to a branch whose role is Agent or a custom role, of the caller's agency (SysOps: all), by branch and name. branch_uuid limits to one branch (another agency's: 404).",
        querystring: AgentsQuery,
        response: responses(ListEnvelope(Agent), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await service.listAgents(deps, requireAuth(request), request.query);
        return list(rows, total, 'Agents retrieved');
      },
    });

    /** POST /api/agents/job-assignment: gives a job an owning agent. */
    app.post('/api/agents/job-assignment', {
      config: { permission: 'api.agents.job-assignment.manage' },
      schema: {
        tags: TAGS,
        summary: 'Give a job an owning agent',
        description:
          "The agent must be an active agent of the job's branch, or of another branch of the same agency when the job's branch shares. " +
          'agent_uuid null removes the owner. Job or agent not found (or of another agency): 404. Job closed or cancelled, agent disabled, ' +
          "agent outside the job's branch while it does not share: 409. A job the caller sees only through sharing: 403.",
        body: AssignmentBody,
        response: responses(DataEnvelope(Assignment), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const result = await service.assignAgent(deps, requireAuth(request), actorOf(request), request.body.job_uuid, request.body.agent_uuid);
        return ok(result, result.agent ? `Job ${result.reference} assigned to ${result.agent.name}` : `Owning agent removed from job ${result.reference}`);
      },
    });
  };
}
