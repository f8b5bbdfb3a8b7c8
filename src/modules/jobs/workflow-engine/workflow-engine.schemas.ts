/**
 * Schemas of GET /api/workflow-engine/workflows (spec 4.15; docs/workflow-engine.md): the
 * query, the wire shapes we answer with, and the n8n public API v1 response shapes we accept from
 * the engine (checked with Value.Check before anything is passed on).
 */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-primitives.ts';

export const ACTIONS = ['list', 'get', 'executions', 'active', 'stats'] as const;
export type Action = (typeof ACTIONS)[number];

/** n8n execution statuses; anything else from the engine is reported as `unknown`. */
export const EXECUTION_STATUSES = ['success', 'error', 'crashed', 'canceled', 'waiting', 'running', 'new', 'unknown'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const WorkflowsQuery = Type.Object(
  {
    action: Type.Unsafe<Action>({ type: 'string', enum: [...ACTIONS], description: 'list | get | executions | active | stats' }),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'workflow id: required for get; optional filter for executions and stats' })),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'page size for list, active and executions (1 to 200)' }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'next_cursor of the previous page (list, active, executions)' })),
    status: Type.Optional(Type.Unsafe<ExecutionStatus>({ type: 'string', enum: ['success', 'error', 'waiting', 'running', 'canceled', 'crashed', 'new'], description: 'executions only: filter by status' })),
  },
  { additionalProperties: false },
);
export type WorkflowsQueryInput = Static<typeof WorkflowsQuery>;

// ---- wire shapes (ours) ----

const Tag = Type.Object({ id: Type.String(), name: Type.String() });
const NullableDateTime = Nullable(DateTime());

export const Workflow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
  created_at: NullableDateTime,
  updated_at: NullableDateTime,
  tags: Type.Array(Tag),
});
export type WorkflowDto = Static<typeof Workflow>;

export const WorkflowDetail = Type.Object({ ...Workflow.properties, node_count: Type.Integer({ minimum: 0 }) });
export type WorkflowDetailDto = Static<typeof WorkflowDetail>;

export const Execution = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  status: Type.Unsafe<ExecutionStatus>({ type: 'string', enum: [...EXECUTION_STATUSES] }),
  finished: Type.Boolean(),
  mode: Type.String({ description: 'manual, trigger, webhook, retry, ...' }),
  started_at: NullableDateTime,
  stopped_at: NullableDateTime,
  retry_of: Type.Union([Type.String(), Type.Null()]),
  wait_till: NullableDateTime,
});
export type ExecutionDto = Static<typeof Execution>;

const countProps = Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<ExecutionStatus, ReturnType<typeof Type.Integer>>;

export const Stats = Type.Object({
  workflow_id: Type.Union([Type.String(), Type.Null()], { description: 'the id filter, or null for every workflow' }),
  executions_counted: Type.Integer({ minimum: 0 }),
  by_status: Type.Object(countProps),
  success_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'success / (success + error + crashed + canceled), 4 decimals; null when none of those',
  }),
  first_started_at: NullableDateTime,
  last_started_at: NullableDateTime,
  truncated: Type.Boolean({ description: 'true when more executions exist than the pages read' }),
});
export type StatsDto = Static<typeof Stats>;

export const WorkflowsEnvelope = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Union([
    Type.Object({ workflows: Type.Array(Workflow), next_cursor: Type.Union([Type.String(), Type.Null()]) }, { description: 'list, active' }),
    Type.Object({ executions: Type.Array(Execution), next_cursor: Type.Union([Type.String(), Type.Null()]) }, { description: 'executions' }),
    Type.Object({ workflow: WorkflowDetail }, { description: 'get' }),
    Type.Object({ stats: Stats }, { description: 'stats' }),
  ]),
});

// ---- engine shapes (n8n public API v1), extra fields allowed and dropped ----

const Id = Type.Union([Type.String({ minLength: 1 }), Type.Number()]);
const MaybeDate = Type.Optional(Type.Union([Type.String(), Type.Null()]));

export const EngineWorkflow = Type.Object({
  id: Id,
  name: Type.String(),
  active: Type.Boolean(),
  createdAt: MaybeDate,
  updatedAt: MaybeDate,
  tags: Type.Optional(Type.Array(Type.Object({ id: Id, name: Type.String() }))),
  nodes: Type.Optional(Type.Array(Type.Unknown())),
});
export type EngineWorkflowT = Static<typeof EngineWorkflow>;

export const EngineExecution = Type.Object({
  id: Id,
  finished: Type.Boolean(),
  mode: Type.String(),
  retryOf: Type.Optional(Type.Union([Id, Type.Null()])),
  startedAt: MaybeDate,
  stoppedAt: MaybeDate,
  workflowId: Id,
  waitTill: MaybeDate,
  status: Type.Optional(Type.String()),
});
export type EngineExecutionT = Static<typeof EngineExecution>;

const Page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ data: Type.Array(item), nextCursor: Type.Optional(Type.Union([Type.String(), Type.Null()])) });

export const EngineWorkflowPage = Page(EngineWorkflow);
export const EngineExecutionPage = Page(EngineExecution);
