/**
 * The console's query defaults (console/src/query.ts, docs/console.md "Stack and why"): reads run
 * even when the browser says it is offline (the page shows its offline problem), are tried once
 * more only when retrying can help (429, 5xx, no connection), never on a 4xx, and nothing refetches
 * on focus or reconnect.
 */
import { onlineManager } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient, MAX_RETRIES, QUERY_DEFAULTS, RETRY_DELAY_MS, shouldRetry } from '../../console/src/query.ts';

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
});
