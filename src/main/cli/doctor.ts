/**
 * `caretaker doctor` (README "The `caretaker` command"): the health of a RUNNING instance, asked over its
 * HTTP API: liveness and readiness (GET /livez, GET /readyz, no authentication), and with a token
 * GET /api/system/status and GET /api/system/queue.
 *
 * Authentication: the status details and the queue are for authenticated callers (the queue for
 * SysOps), so doctor sends `Authorization: Bearer $CARETAKER_TOKEN` when that variable is set (the
 * token of a SysOps or API account from POST /api/auth/login). It is read from the environment,
 * never from the command line, so it stays out of shell history and `ps`. Without it doctor
 * reports liveness, readiness and the public status only.
 */
import type { Config } from '../../config/config.ts';

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
  error?: string;
}

async function get(base: string, path: string, token: string | undefined): Promise<Answer> {
  try {
    const res = await fetch(`${base}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    return { status: res.status, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    return { status: 0, body: undefined, error: cause };
  }
}

interface QueueRow {
  name: string;
  counts: Record<string, number>;
  oldest_waiting_s: number | null;
}

/**
 * The base URL doctor asks when --url is not given: CARETAKER_PUBLIC_URL or http://HOST:PORT, as
 * the configuration resolves them (wildcard hosts become localhost).
 */
export function doctorDefaultUrl(config: Readonly<Config> | undefined): string {
  return config?.mail.publicUrl ?? 'http://127.0.0.1:3000';
}

/**
 * Asks the instance at `base` and prints what it found.
 * @param token bearer token (CARETAKER_TOKEN) or undefined
 * @returns exit code: 0 ready and status ok; 1 unreachable, not ready, degraded or down
 */
export async function doctor(base: string, token: string | undefined, out: (line: string) => void): Promise<number> {
  const url = base.replace(/\/+$/, '');
  out(`Caretaker at ${url}`);
  const live = await get(url, '/livez', undefined);
  if (live.status === 0) {
    out(`FAIL  reachable     no answer (${live.error}). Fix: start it (caretaker serve) or pass --url with its address`);
    return 1;
  }
  let problems = 0;
  const line = (ok: boolean, subject: string, text: string) => {
    if (!ok) problems += 1;
    out(`${(ok ? 'ok' : 'FAIL').padEnd(4)}  ${subject.padEnd(11)} ${text}`);
  };
  line(live.status === 200, 'live', `HTTP ${live.status}`);
  const ready = await get(url, '/readyz', undefined);
  line(ready.status === 200, 'ready', ready.status === 200 ? 'HTTP 200' : `HTTP ${ready.status}: ${String(ready.body?.error ?? ready.error ?? '')}`);

  if (!token) {
    // The status needs authentication like every /api endpoint (spec 5).
    out('info  status      not shown: set CARETAKER_TOKEN to the bearer token of an account (POST /api/auth/login)');
    out('info  queue       not shown: set CARETAKER_TOKEN to the bearer token of a SysOps account (POST /api/auth/login)');
  } else {
    const status = await get(url, '/api/system/status', token);
    const data = (status.body?.data ?? {}) as { status?: string; version?: string; uptime_s?: number; checks?: Record<string, string> };
    const details = data.checks
      ? `, up ${data.uptime_s} s, database ${data.checks.database} (${data.checks.database_engine}), cache ${data.checks.cache}, rate limits in ${data.checks.rate_limit_store}`
      : '';
    line(data.status === 'ok', 'status', `${data.status ?? `HTTP ${status.status}`}, version ${data.version ?? '?'}${details}`);

    const queue = await get(url, '/api/system/queue', token);
    if (queue.status !== 200) {
      line(false, 'queue', `HTTP ${queue.status}: ${String(queue.body?.error ?? queue.error ?? '')} (the queue needs a SysOps token in CARETAKER_TOKEN)`);
    } else {
      const q = queue.body?.data as { queues: QueueRow[]; outbox: { unpublished: number; lag_s: number } };
      const sum = (state: string) => q.queues.reduce((n, r) => n + (r.counts[state] ?? 0), 0);
      const oldest = Math.max(0, ...q.queues.map((r) => r.oldest_waiting_s ?? 0));
      out(
        `ok    queue       ${q.queues.length} queues: ${sum('created')} waiting, ${sum('retry')} retrying, ${sum('active')} running, ` +
          `${sum('failed')} failed; oldest waiting ${oldest} s; outbox ${q.outbox.unpublished} unpublished (lag ${q.outbox.lag_s} s)`,
      );
      const dead = q.queues.find((r) => r.name === 'dead-letter');
      const deadCount = dead ? Object.values(dead.counts).reduce((a, b) => a + b, 0) : 0;
      if (deadCount > 0) out(`warn  dead-letter ${deadCount} job(s): see \`caretaker dead-letters list\`, then retry or purge them (docs/operations.md "Dead-letter queue")`);
    }
  }
  out(problems === 0 ? 'Healthy.' : `${problems} problem${problems === 1 ? '' : 's'} found.`);
  return problems === 0 ? 0 : 1;
}
