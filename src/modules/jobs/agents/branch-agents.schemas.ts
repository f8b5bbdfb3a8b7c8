/** Schemas of branch sharing, the agent list and job assignment (spec 4.11; docs/agents.md). */
import { Type } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { UserStatus } from '../../people/users/index.ts';
import { Uuid } from '../../../http/schema-primitives.ts';

const BRANCH_UUID = "a branch of the caller's agency; only for callers holding api.admin.branches.manage (SysOps: any). Default: the caller's own branch";

export const SharingQuery = Type.Object({ branch_uuid: Type.Optional(Uuid(BRANCH_UUID)) }, { additionalProperties: false });

export const SharingBody = Type.Object(
  {
    enabled: Type.Boolean({ description: 'true: agents of the agency\'s other branches see (not edit) this branch\'s jobs' }),
    branch_uuid: Type.Optional(Uuid(BRANCH_UUID)),
  },
  { additionalProperties: false },
);

export const Sharing = Type.Object({
  branch_uuid: Uuid(),
  branch_name: Type.String(),
  enabled: Type.Boolean(),
});

export const AgentsQuery = Type.Object(
  {
    branch_uuid: Type.Optional(Uuid('only agents of this branch')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the name or e-mail' })),
    ...Pagination,
  },
  { additionalProperties: false },
);

export const Agent = Type.Object(
  {
    uuid: Uuid(),
    name: Type.String(),
    email: Type.String(),
    role: Type.String({ description: 'role name (Agent or a custom role)' }),
    status: UserStatus(),
    branch: Type.Object({ uuid: Uuid(), name: Type.String() }),
  },
  { description: 'A staff account attached to a branch' },
);

export const AssignmentBody = Type.Object(
  {
    job_uuid: Uuid('the job'),
    agent_uuid: Type.Union([Uuid('the new owning agent'), Type.Null()], { description: 'the new owning agent; null removes the owner' }),
  },
  { additionalProperties: false },
);

export const Assignment = Type.Object({
  job_uuid: Uuid(),
  reference: Type.String(),
  agent: Type.Union([Type.Object({ uuid: Uuid(), name: Type.String(), branch_uuid: Uuid() }), Type.Null()]),
});
