/**
 * `caretaker dead-letters list|retry|purge` (docs/operations.md "Dead-letter queue"): the dead-letter
 * queue of a RUNNING instance, through its HTTP API (GET /api/system/dead-letters, POST
 * /api/system/dead-letters/retry and /purge), so it works on both engines while the server runs.
 * Authentication as for `caretaker doctor` and `caretaker backup`: a SysOps bearer token in
 * CARETAKER_TOKEN, read from the environment, never from the command line.
 */

/** What the sub-commands need. */
export interface DeadLettersOptions {
  /** Base URL of the running server. */
  url: string;
  /** SysOps bearer token (CARETAKER_TOKEN). */
  token: string | undefined;
}

/** Which dead letters retry and purge take. */
export interface DeadLetterChoice {
  ids?: string[] | undefined;
  queue?: string | undefined;
  all?: boolean | undefined;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  count?: number;
  error?: string;
  message?: string;
}

/** One request to the server; the parsed envelope, or an error line for the caller to print. */
async function call(opts: DeadLettersOptions, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<{ status: number; body: Envelope } | { error: string }> {
  const base = opts.url.replace(/\/+$/, '');
  const auth: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  try {
    let csrf: string | undefined;
    if (method === 'POST') {
      const res = await fetch(`${base}/api/security/csrf-token`, { headers: auth, signal: AbortSignal.timeout(10_000) });
      csrf = ((await res.json().catch(() => ({}))) as { data?: { token?: string } }).data?.token;
    }
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify({ ...body, ...(csrf ? { csrf_token: csrf } : {}) }) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Envelope };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    return { error: `no answer from ${base} (${cause}): is the server running there? Give its address with --url` };
  }
}

/** The error line of a refused request, with the fix for 401/403. */
function refusal(status: number, body: Envelope): string {
  const hint = status === 401 || status === 403 ? ' (set CARETAKER_TOKEN to the bearer token of a SysOps account)' : '';
  return `caretaker dead-letters: the server answered ${status}: ${body.error ?? body.message ?? 'no message'}${hint}`;
}

interface DeadLetterItem {
  ID: string;
  queue: string | null;
  event_id: string | null;
  tries: number;
  error: string | null;
  failed_at: string;
}

/**
 * `caretaker dead-letters list`: one line per dead letter, oldest first, then the total.
 * @returns the exit code: 0 listed (also when empty), 1 the server refused or did not answer
 */
export async function listDeadLettersCommand(opts: DeadLettersOptions & { queue?: string | undefined; limit?: number | undefined }, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const query = new URLSearchParams({ limit: String(opts.limit ?? 200) });
  if (opts.queue) query.set('queue', opts.queue);
  const r = await call(opts, 'GET', `/api/system/dead-letters?${query}`);
  if ('error' in r) {
    err(`caretaker dead-letters: ${r.error}`);
    return 1;
  }
  if (r.status !== 200) {
    err(refusal(r.status, r.body));
    return 1;
  }
  const items = (r.body.data ?? []) as DeadLetterItem[];
  for (const d of items) {
    out(`${d.ID}  ${d.failed_at}  ${d.queue ?? '(unknown queue)'}  tries ${d.tries}${d.event_id ? `  event ${d.event_id}` : ''}  ${d.error ?? ''}`.trimEnd());
  }
  const total = r.body.count ?? items.length;
  out(total === 0 ? 'The dead-letter queue is empty.' : `${total} dead letter(s)${total > items.length ? `, the first ${items.length} shown` : ''}.`);
  return 0;
}

/**
 * `caretaker dead-letters retry|purge`: the chosen dead letters put back on their queues, or deleted.
 * @returns the exit code: 0 done, 1 the server refused or did not answer, 2 nothing chosen
 */
export async function changeDeadLettersCommand(action: 'retry' | 'purge', opts: DeadLettersOptions & DeadLetterChoice, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const some = (opts.ids?.length ?? 0) > 0 || opts.queue !== undefined;
  if (some === Boolean(opts.all)) {
    err(`caretaker dead-letters ${action}: say which: --id ID (repeatable) and/or --queue QUEUE, or --all`);
    return 2;
  }
  const body = opts.all ? { all: true } : { ...(opts.ids?.length ? { ids: opts.ids } : {}), ...(opts.queue !== undefined ? { queue: opts.queue } : {}) };
  const r = await call(opts, 'POST', `/api/system/dead-letters/${action}`, body);
  if ('error' in r) {
    err(`caretaker dead-letters: ${r.error}`);
    return 1;
  }
  if (r.status !== 200) {
    err(refusal(r.status, r.body));
    return 1;
  }
  const data = (r.body.data ?? {}) as { retried?: number; purged?: number };
  out(action === 'retry' ? `${data.retried ?? 0} dead letter(s) put back on their queues.` : `${data.purged ?? 0} dead letter(s) deleted.`);
  return 0;
}
