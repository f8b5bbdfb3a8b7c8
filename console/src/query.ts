/**
 * The console's one TanStack Query client (docs/console.md "Stack and why"): every `useLoad` of
 * the pages reads through it, so a list shown on two pages is fetched once and shared, and a
 * reload refetches every component showing it. Its defaults keep the console's behaviour:
 *
 * - `networkMode: 'always'`: a query runs even when the browser says it is offline, fails, and the
 *   page shows its offline problem with "Try again" (TanStack's default 'online' would pause it and
 *   leave the page loading for ever).
 * - Retries: one, after 300 ms, only when retrying can help (`Problem.retry` of
 *   logic/errors.ts: 429, 5xx, no connection); a 4xx is told at once. Writes (mutations) never retry.
 * - No refetch on window focus or on reconnect: the live updates (live.ts) refetch what changed,
 *   and a refetch nobody asked for re-renders a page under the user's hands.
 * - `staleTime: 0`: a page opened again shows what was cached and refetches it at once.
 *
 * After a write, a page refreshes what it changed with `refreshAfterWrite`.
 */
// From query-core (the same classes @tanstack/react-query re-exports): this module stays free of
// React, so the Node tests check these defaults without React's types in the server's program.
import { QueryClient, type DefaultOptions, type QueryKey } from '@tanstack/query-core';
import { describeProblem } from './logic/errors.ts';

/** How many times a failed read is tried again (only when the problem says retrying helps). */
export const MAX_RETRIES = 1;

/** Milliseconds before the retry of a failed read. */
export const RETRY_DELAY_MS = 300;

/** Whether a read that failed with `error` after `failureCount` earlier failures (0 on the first) with `error` is tried again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && describeProblem(error).retry;
}

/** The defaults of the console's queries and mutations (see the module comment). */
export const QUERY_DEFAULTS: DefaultOptions = {
  queries: {
    networkMode: 'always',
    retry: shouldRetry,
    retryDelay: RETRY_DELAY_MS,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: 0,
  },
  mutations: { networkMode: 'always', retry: false },
};

/** A new client with the console's defaults (one per app; tests make their own). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: QUERY_DEFAULTS });
}

/** The console's client, provided in App.tsx. */
export const queryClient = createQueryClient();

/**
 * After a write: every query under `key` (e.g. `['branches']`, every page of every branch list) is
 * read again, and a read still on its way, sent before the write, is dropped rather than left to
 * answer with what was there before. TanStack's `invalidateQueries` alone cancels a read in flight
 * only when its query already holds data: a list whose first read had not yet answered when the
 * form beside it was sent kept that first answer, without the new row. So the reads in flight are
 * cancelled first (`cancelQueries`, as TanStack Query's guide to optimistic updates does), then the
 * queries invalidated, which reads again those a page shows.
 * @param client the console's client (`queryClient`), or a test's
 * @param key the start of the keys to read again
 * @returns when the new reads have answered
 */
export async function refreshAfterWrite(client: QueryClient, key: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey: key });
  await client.invalidateQueries({ queryKey: key });
}
