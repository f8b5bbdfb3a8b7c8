/**
 * The benchmark's server process: the real app on PORT and, on CEILING_PORT, the "ceiling": a
 * bare Fastify instance (no pipeline: no token lookup, rate limit, CSRF, schema validation or
 * response schema) whose routes call the SAME service and repository functions, hence the same
 * SQL, on the SAME database pool. The ratio real / ceiling is what our pipeline costs.
 *
 * Started by bench/run.ts with the configuration in the environment (DATABASE_URL or
 * CARETAKER_DATA_DIR, REDIS_URL, high rate limits).
 */
import Fastify from 'fastify';
import { buildApp } from '../src/main/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { pingDatabase } from '../src/db/database.ts';
import type { AuthContext } from '../src/core/auth-context.ts';
import { readActivityLogJson } from '../src/modules/people/admin/activity-log.service.ts';
import { authenticate, login } from '../src/modules/people/auth/auth.service.ts';
import { listOfJson } from '../src/http/envelope.ts';
import { createJob, listVisibleJobsJson } from '../src/modules/jobs/jobs/jobs.service.ts';
import { openRuntime } from '../src/main/runtime.ts';
import { generate } from './generate.ts';
import { startLimit } from './limit.ts';

const config = loadConfig();
const runtime = await openRuntime(config);
const deps = runtime.deps;
if (process.env.BENCH_JOBS) {
  // Generated here, in the process that serves it (PGlite is one process).
  const seconds = await generate(deps.db, {
    jobs: Number(process.env.BENCH_JOBS),
    activity: Number(process.env.BENCH_ACTIVITY),
    loginAccounts: Number(process.env.BENCH_LOGIN_ACCOUNTS),
    passwordHash: process.env.BENCH_PASSWORD_HASH!,
    ...(process.env.BENCH_AGENCIES ? { agencies: Number(process.env.BENCH_AGENCIES) } : {}),
  });
  process.stdout.write(`generated in ${seconds.toFixed(1)} s\n`);
}
const app = await buildApp(deps, { logger: false });
await app.listen({ port: config.port, host: '127.0.0.1' });

const ceiling = Fastify({ logger: false });
// The identity behind a bearer token, resolved once per token (the real app looks it up per request).
const identities = new Map<string, Promise<AuthContext>>();
const who = (authorization: string | undefined): Promise<AuthContext> => {
  const key = authorization ?? '';
  let found = identities.get(key);
  if (!found) {
    found = authenticate(deps, { authorization });
    identities.set(key, found);
  }
  return found;
};
const num = (v: unknown, fallback: number) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : fallback);

// The status handler's own work: ping the database and Redis.
ceiling.get('/status', async () => {
  const [database] = await Promise.all([pingDatabase(deps.db), deps.redis?.ping()]);
  return { success: true, data: { status: database ? 'ok' : 'down', version: config.version } };
});
ceiling.get('/jobs', async (request, reply) => {
  const q = request.query as Record<string, string>;
  const auth = await who(request.headers.authorization);
  const { json, total } = await listVisibleJobsJson(deps, auth, { limit: num(q.limit, 50), offset: num(q.offset, 0) } as never);
  return reply.type('application/json; charset=utf-8').send(listOfJson(json, total, 'Jobs retrieved'));
});
ceiling.get('/activity', async (request, reply) => {
  const q = request.query as Record<string, string>;
  const auth = await who(request.headers.authorization);
  const { json, total } = await readActivityLogJson(deps, auth, {
    ...(q.user_id ? { user_id: Number(q.user_id) } : {}),
    ...(q.from_date ? { from_date: q.from_date } : {}),
    ...(q.to_date ? { to_date: q.to_date } : {}),
    limit: num(q.limit, 50),
    offset: num(q.offset, 0),
  });
  return reply.type('application/json; charset=utf-8').send(listOfJson(json, total, 'Activity log retrieved'));
});
ceiling.post('/jobs', async (request, reply) => {
  const auth = await who(request.headers.authorization);
  const job = await deps.db.transaction().execute((trx) => createJob(deps, trx, auth, { auth, ip: request.ip }, request.body as never, { last: true }));
  void reply.status(201);
  return { success: true, data: job, message: 'Job created' };
});
ceiling.post('/login', async (request) => {
  const body = request.body as { email: string; password: string };
  const result = await login(deps, { accountBlocked: async () => false, throttled: async () => undefined }, { email: body.email, password: body.password, rememberMe: false }, { auth: null, ip: request.ip, userAgent: null });
  return { success: true, token: result.token };
});
await ceiling.listen({ port: Number(process.env.CEILING_PORT), host: '127.0.0.1' });
// The honest limit (bench/limit.ts): bare node:http, one prepared statement, the same bytes.
const closeLimit = await startLimit(deps, Number(process.env.LIMIT_PORT));
process.stdout.write(`bench server ready on ${deps.engine}\n`);

process.on('SIGTERM', () => {
  void Promise.all([app.close(), ceiling.close(), closeLimit()])
    .then(() => runtime.close())
    .finally(() => process.exit(0));
});
