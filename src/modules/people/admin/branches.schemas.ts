/** Schemas of branches (docs/administration.md). */
import { Type, type Static } from 'typebox';
import { Pagination, Sorting } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const Name = Type.String({ minLength: 1, maxLength: 100, description: 'unique within the agency' });

export const Branch = Type.Object(
  {
    uuid: Uuid(),
    name: Type.String(),
    agency: Type.Object({ uuid: Uuid(), name: Type.String() }),
    sharing_enabled: Type.Boolean({ description: 'agents of the agency\'s other branches see (not edit) this branch\'s jobs' }),
    closed_at: Type.Union([DateTime(), Type.Null()]),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'A branch of an agency' },
);
export type BranchDto = Static<typeof Branch>;

/** What GET /api/admin/branches sorts by (`sort`): the branch's name, or its agency's name then the branch's (docs/api.md). */
export const BRANCH_SORTS = ['name', 'agency'] as const;

export const ListBranchesQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the name' })),
    include_closed: Type.Optional(Type.Boolean({ default: false, description: 'also list closed branches' })),
    agency_uuid: Type.Optional(Uuid({ description: 'SysOps: only this agency' })),
    ...Sorting(BRANCH_SORTS, 'agency', 'asc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListBranchesInput = Static<typeof ListBranchesQuery>;

export const BranchParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });

export const CreateBranchBody = Type.Object(
  {
    name: Name,
    agency_uuid: Type.Optional(Uuid({ description: 'required for SysOps; others create in their own agency' })),
    sharing_enabled: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type CreateBranchInput = Static<typeof CreateBranchBody>;

export const UpdateBranchBody = Type.Object(
  { name: Type.Optional(Name), sharing_enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type UpdateBranchInput = Static<typeof UpdateBranchBody>;
