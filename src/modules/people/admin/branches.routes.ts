/** Branches of an agency (docs/administration.md). Rules live in branches.service.ts. */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Branch, BranchParams, CreateBranchBody, ListBranchesQuery, UpdateBranchBody } from './branches.schemas.ts';
import * as service from './branches.service.ts';

const TAGS = ['administration'];

/** Registers the branch routes. */
export function branchesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/admin/branches: branches of the caller's agency (SysOps: all). */
    app.get('/api/admin/branches', {
      config: { permission: 'api.admin.branches.view' },
      schema: {
        tags: TAGS,
        summary: 'List branches',
        description: 'Branches of the caller\'s agency (SysOps: every agency, or agency_uuid), by agency and name (sort=agency|name, order=asc|desc; default agency asc; id breaks ties). Closed branches only with include_closed=true; q matches the name.',
        querystring: ListBranchesQuery,
        response: responses(ListEnvelope(Branch), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await service.listBranches(deps, requireAuth(request), request.query);
        return list(rows, total, 'Branches retrieved');
      },
    });

    /** POST /api/admin/branches: creates a branch. */
    app.post('/api/admin/branches', {
      config: { permission: 'api.admin.branches.manage' },
      schema: {
        tags: TAGS,
        summary: 'Create a branch',
        description: 'In the caller\'s agency; SysOps must pass agency_uuid. A name already used in the agency: 409.',
        body: CreateBranchBody,
        response: responses(DataEnvelope(Branch), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const branch = await service.createBranch(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(branch, 'Branch created');
      },
    });

    /** PUT /api/admin/branches/{uuid}: renames a branch or sets its sharing flag. */
    app.put('/api/admin/branches/:uuid', {
      config: { permission: 'api.admin.branches.manage' },
      schema: {
        tags: TAGS,
        summary: 'Update a branch',
        description: 'name and/or sharing_enabled. Another agency\'s branch: 404. A name already used in the agency: 409.',
        params: BranchParams,
        body: UpdateBranchBody,
        response: responses(DataEnvelope(Branch), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.updateBranch(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Branch updated'),
    });

    /** POST /api/admin/branches/{uuid}/close: closes a branch without open jobs. */
    app.post('/api/admin/branches/:uuid/close', {
      config: { permission: 'api.admin.branches.manage' },
      schema: {
        tags: TAGS,
        summary: 'Close a branch',
        description: 'Branches are never deleted. Needs a CSRF token (header, or csrf_token in a JSON body). Refused with 409 while the branch has jobs in an open status, or when it is already closed.',
        params: BranchParams,
        response: responses(DataEnvelope(Branch), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.setBranchClosed(deps, requireAuth(request), actorOf(request), request.params.uuid, true), 'Branch closed'),
    });

    /** POST /api/admin/branches/{uuid}/reopen: reopens a closed branch. */
    app.post('/api/admin/branches/:uuid/reopen', {
      config: { permission: 'api.admin.branches.manage' },
      schema: {
        tags: TAGS,
        summary: 'Reopen a closed branch',
        description: '409 when the branch is not closed.',
        params: BranchParams,
        response: responses(DataEnvelope(Branch), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await service.setBranchClosed(deps, requireAuth(request), actorOf(request), request.params.uuid, false), 'Branch reopened'),
    });
  };
}
