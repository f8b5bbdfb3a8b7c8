/**
 * The console's query defaults (console/src/query.ts, docs/console.md "Stack and why"): reads run
 * even when the browser says it is offline (the page shows its offline problem), are tried once
 * more only when retrying can help (429, 5xx, no connection), never on a 4xx, and nothing refetches
 * on focus or reconnect; after a write, a list's first read still on its way does not stand as its
 * answer (refreshAfterWrite).
 */
import { onlineManager, QueryObserver, type QueryClient } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient, MAX_RETRIES, QUERY_DEFAULTS, refreshAfterWrite, RETRY_DELAY_MS, shouldRetry } from '../../console/src/query.ts';

/** An error as the typed client throws it. */
function httpError(status: number): Error & { status: number } {
  return Object.assign(new Error(`HTTP ${status}`), { status });
}

describe('console: query defaults', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('retries once, quickly, and only what retrying can help', () => {
    expect(MAX_RETRIES).toBe(1);
    expect(RETRY_DELAY_MS).toBeLessThanOrEqual(500);
    for (const e of [httpError(429), httpError(500), httpError(503), new TypeError('Failed to fetch')]) {
      expect(shouldRetry(0, e)).toBe(true);
      expect(shouldRetry(1, e)).toBe(false);
    }
    for (const status of [400, 401, 403, 404, 409, 413]) expect(shouldRetry(0, httpError(status))).toBe(false);
  });

  it('keeps the console behaviour: runs offline, no refetch on focus or reconnect, mutations never retry', () => {
    expect(QUERY_DEFAULTS.queries).toMatchObject({ networkMode: 'always', refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: 0 });
    expect(QUERY_DEFAULTS.mutations).toMatchObject({ retry: false });
  });

  it('a 503 is tried a second time; a 404 once', async () => {
    const client = createQueryClient();
    let calls = 0;
    const value = await client.fetchQuery({
      queryKey: ['flaky'],
      queryFn: async () => {
        calls += 1;
        if (calls === 1) throw httpError(503);
        return 'ok';
      },
    });
    expect(value).toBe('ok');
    expect(calls).toBe(2);
    let missing = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['missing'],
        queryFn: async () => {
          missing += 1;
          throw httpError(404);
        },
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(missing).toBe(1);
    client.clear();
  });

  it('offline, a read still runs and fails (it is not paused)', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient();
    let calls = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['offline'],
        queryFn: async () => {
          calls += 1;
          throw new TypeError('Failed to fetch');
        },
      }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(calls).toBe(2);
    client.clear();
  });

  /**
   * A list shown by a page (an observer) whose first read is on its way when a row is added: the
   * read was sent before the write, so it answers without the row, after the write has been made.
   * Returns the rows the page shows once `refresh` and every read have settled.
   */
  async function listAfterWrite(refresh: (client: QueryClient) => Promise<void>): Promise<string[]> {
    const client = createQueryClient();
    let rows = ['York'];
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    let reads = 0;
    const observer = new QueryObserver<string[]>(client, {
      queryKey: ['branches', 'page', { p: 1 }],
      queryFn: async () => {
        reads += 1;
        const seen = [...rows];
        if (reads === 1) await firstAnswered;
        return seen;
      },
    });
    const shown: string[][] = [];
    const unsubscribe = observer.subscribe((r) => {
      if (r.data) shown.push(r.data);
    });
    rows = [...rows, 'Leeds'];
    const refreshed = refresh(client);
    answerFirst();
    await refreshed;
    await new Promise((resolve) => setTimeout(resolve, 10));
    unsubscribe();
    client.clear();
    return shown.at(-1) ?? [];
  }

  it('after a write, a list whose first read was still on its way shows the new row', async () => {
    expect(await listAfterWrite((client) => refreshAfterWrite(client, ['branches']))).toEqual(['York', 'Leeds']);
    // Why the cancel comes first: TanStack's invalidation alone keeps that first read's answer.
    expect(await listAfterWrite((client) => client.invalidateQueries({ queryKey: ['branches'] }))).toEqual(['York']);
  });
});
