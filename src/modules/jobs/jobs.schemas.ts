/** Schemas of the jobs endpoints (spec 4.16; API.md "jobs"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../http/pagination.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = () => Nullable(Type.String({ format: 'date-time' }));

export const Job = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    reference: Type.String({ description: 'agency-unique reference such as JOB-000123' }),
    title: Type.String(),
    description: Type.String(),
    priority: Type.Integer({ minimum: 1, maximum: 5, description: '1 emergency to 5 planned' }),
    status_id: Type.Integer(),
    status: Type.String(),
    job_type_id: Type.Integer(),
    job_type: Type.String(),
    branch_uuid: Type.String({ format: 'uuid' }),
    branch_name: Type.String(),
    address_uuid: Nullable(Type.String({ format: 'uuid' })),
    postcode: Nullable(Type.String()),
    tenant_uuid: Nullable(Type.String({ format: 'uuid' })),
    contractor_uuid: Nullable(Type.String({ format: 'uuid' })),
    estimated_cost_pence: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    agreed_cost_pence: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    currency: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    scheduled_for: DateTime(),
    completed_at: DateTime(),
  },
  { description: 'A job (work order). Costs are absent for tenants.' },
);
export type JobDto = Static<typeof Job>;

export const ListJobsQuery = Type.Object({ ...Pagination }, { additionalProperties: false });

export const CreateJobBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    priority: Type.Integer({ minimum: 1, maximum: 5, description: '1 emergency, 2 urgent, 3 routine, 4 low, 5 planned' }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    job_type_id: Type.Optional(Type.Integer({ minimum: 1, description: 'default 1 (reactive repair)' })),
    branch_uuid: Type.Optional(Type.String({ format: 'uuid', description: "default: the caller's branch, or the agency's only branch" })),
    address_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    tenant_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    csrf_token: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type CreateJobInput = Static<typeof CreateJobBody>;
