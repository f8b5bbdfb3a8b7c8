/**
 * Reading the connected workflow engine (spec 4.15; docs/workflow-engine.md): one function per
 * `action`, mapping n8n's answers to our snake_case wire shapes with only the documented fields,
 * and deriving execution statistics over a bounded number of pages.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { AppError, invalidParam } from '../../../core/errors.ts';
import { N8nClient } from './n8n-client.ts';
import {
  EXECUTION_STATUSES,
  type EngineExecutionT,
  type EngineWorkflowT,
  type ExecutionDto,
  type ExecutionStatus,
  type StatsDto,
  type WorkflowDetailDto,
  type WorkflowDto,
  type WorkflowsQueryInput,
} from './workflow-engine.schemas.ts';

/** Page size asked of the engine by `stats` (n8n's maximum). */
export const STATS_PAGE_SIZE = 250;
/** Pages of finished and waiting executions `stats` reads at most (5,000 executions), plus one page of running ones. */
export const STATS_MAX_PAGES = 20;

/** Query parameters each action accepts besides `action` and `limit`. */
const ALLOWED: Record<WorkflowsQueryInput['action'], Array<'id' | 'cursor' | 'status'>> = {
  list: ['cursor'],
  active: ['cursor'],
  get: ['id'],
  executions: ['id', 'cursor', 'status'],
  stats: ['id'],
};

const iso = (v: string | null | undefined): string | null => {
  if (v === null || v === undefined) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
};

function toWorkflow(w: EngineWorkflowT): WorkflowDto {
  return {
    id: String(w.id),
    name: w.name,
    active: w.active,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
    tags: (w.tags ?? []).map((t) => ({ id: String(t.id), name: t.name })),
  };
}

/** n8n's status, or (older engines without one) derived from finished, waitTill and stoppedAt. */
function statusOf(e: EngineExecutionT): ExecutionStatus {
  if (e.status !== undefined) return (EXECUTION_STATUSES as readonly string[]).includes(e.status) ? (e.status as ExecutionStatus) : 'unknown';
  if (e.finished) return 'success';
  if (e.waitTill) return 'waiting';
  if (!e.stoppedAt) return 'running';
  return 'error';
}

function toExecution(e: EngineExecutionT): ExecutionDto {
  return {
    id: String(e.id),
    workflow_id: String(e.workflowId),
    status: statusOf(e),
    finished: e.finished,
    mode: e.mode,
    started_at: iso(e.startedAt),
    stopped_at: iso(e.stoppedAt),
    retry_of: e.retryOf === null || e.retryOf === undefined ? null : String(e.retryOf),
    wait_till: iso(e.waitTill),
  };
}

/** Counts by status and the success rate over `executions`. */
export function executionStats(executions: ExecutionDto[], workflowId: string | null, truncated: boolean): StatsDto {
  const by = Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) as Record<ExecutionStatus, number>;
  for (const e of executions) by[e.status] += 1;
  const decided = by.success + by.error + by.crashed + by.canceled;
  const starts = executions.map((e) => e.started_at).filter((s): s is string => s !== null).sort();
  return {
    workflow_id: workflowId,
    executions_counted: executions.length,
    by_status: by,
    success_rate: decided === 0 ? null : Math.round((by.success / decided) * 10_000) / 10_000,
    first_started_at: starts[0] ?? null,
    last_started_at: starts[starts.length - 1] ?? null,
    truncated,
  };
}

export type WorkflowsResult =
  | { message: string; data: { workflows: WorkflowDto[]; next_cursor: string | null } }
  | { message: string; data: { executions: ExecutionDto[]; next_cursor: string | null } }
  | { message: string; data: { workflow: WorkflowDetailDto } }
  | { message: string; data: { stats: StatsDto } };

/**
 * GET /api/workflow-engine/workflows: answers one action from the engine.
 * @throws 400 for a parameter the action does not take or a missing id (get); 503 "Workflow engine
 *   not configured"; 502 when the engine fails; 404 "Workflow not found" (get)
 */
export async function readWorkflows(deps: AppDeps, q: WorkflowsQueryInput): Promise<WorkflowsResult> {
  for (const name of ['id', 'cursor', 'status'] as const) {
    if (q[name] !== undefined && !ALLOWED[q.action].includes(name)) throw invalidParam(name);
  }
  if (q.action === 'get' && q.id === undefined) throw invalidParam('id');
  const { url, apiKey, timeoutMs } = deps.config.workflowEngine;
  if (!url || !apiKey) throw new AppError('unavailable', 'Workflow engine not configured');
  const engine = new N8nClient({ url, apiKey, timeoutMs });

  switch (q.action) {
    case 'list':
    case 'active': {
      const page = await engine.listWorkflows({ limit: q.limit, cursor: q.cursor, active: q.action === 'active' ? true : undefined });
      return { message: 'Workflows retrieved', data: { workflows: page.data.map(toWorkflow), next_cursor: page.nextCursor ?? null } };
    }
    case 'get': {
      const w = await engine.getWorkflow(q.id!);
      return { message: 'Workflow retrieved', data: { workflow: { ...toWorkflow(w), node_count: w.nodes?.length ?? 0 } } };
    }
    case 'executions': {
      const page = await engine.listExecutions({ limit: q.limit, cursor: q.cursor, workflowId: q.id, status: q.status });
      return { message: 'Executions retrieved', data: { executions: page.data.map(toExecution), next_cursor: page.nextCursor ?? null } };
    }
    case 'stats': {
      // n8n leaves running executions out of an unfiltered list: read them with their own filter.
      // An id seen twice (an engine that lists running ones anyway) counts once.
      const byId = new Map<string, ExecutionDto>();
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await engine.listExecutions({ limit: STATS_PAGE_SIZE, cursor, workflowId: q.id });
        for (const e of page.data.map(toExecution)) byId.set(e.id, e);
        cursor = page.nextCursor ?? undefined;
        pages += 1;
      } while (cursor !== undefined && pages < STATS_MAX_PAGES);
      const running = await engine.listExecutions({ limit: STATS_PAGE_SIZE, workflowId: q.id, status: 'running' });
      for (const e of running.data.map(toExecution)) byId.set(e.id, e);
      const truncated = cursor !== undefined || (running.nextCursor ?? null) !== null;
      return { message: 'Execution statistics retrieved', data: { stats: executionStats([...byId.values()], q.id ?? null, truncated) } };
    }
  }
}
