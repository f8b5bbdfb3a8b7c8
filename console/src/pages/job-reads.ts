/**
 * The job page's first reads (the job, the statuses, its history: what the page's details and
 * "What next" show) as query keys and loads shared by the page (job.tsx) and the start-up
 * (main.tsx), kept out of job.tsx so that main.tsx can start them without pulling the page's own
 * chunk into the main bundle (docs/console.md "How it is built and served").
 */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import { prefetchLoad } from '../ui.tsx';

/** The job page's address: `/jobs/<uuid>` (not `/jobs/new`). */
const JOB_PATH = /^\/jobs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The job page's three first reads of job `uuid`: their query keys and loads
 * (GET /api/jobs/{uuid}, GET /api/jobs/statuses, GET /api/jobs/{uuid}/history).
 */
export function jobReads(uuid: string) {
  const path = { params: { path: { uuid } } };
  return {
    job: { key: ['jobs', uuid], load: async () => (await api.GET('/api/jobs/{uuid}', path)).data!.data },
    statuses: { key: ['jobs', 'statuses'], load: async () => (await api.GET('/api/jobs/statuses')).data!.data },
    history: { key: ['jobs', uuid, 'history'], load: async () => (await api.GET('/api/jobs/{uuid}/history', path)).data!.data },
  };
}

/**
 * Starts the job page's chunk and its three first reads at start-up when the address is a job's
 * page, at the same time as the session's reads: before, the chunk was asked for only once the
 * session had answered and the routes had rendered, and the reads only once the chunk had run
 * (docs/console.md "How it is built and served"). Anything else: nothing.
 * @param client the console's query client (query.ts)
 * @param location the address opened (window.location)
 */
export function prefetchJobPage(client: QueryClient, location: { pathname: string }): void {
  const uuid = JOB_PATH.exec(location.pathname)?.[1];
  if (!uuid) return;
  // The same module routes.tsx loads lazily: one download, kept by the browser's module map.
  void import('./job.tsx').catch(() => undefined);
  const reads = jobReads(uuid);
  prefetchLoad(client, reads.job.key, reads.job.load);
  prefetchLoad(client, reads.statuses.key, reads.statuses.load);
  prefetchLoad(client, reads.history.key, reads.history.load);
}
