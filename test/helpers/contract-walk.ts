/**
 * The broad request walk of the contract test (test/http/walkthroughs-http.test.ts): every
 * operation of the document, as every demo role and anonymously, with path values taken from
 * what earlier answers listed and bodies made from the request schemas; plus, per operation, the
 * requests the document refuses (no body where one is required, a malformed path value, an
 * undocumented media type, a query value over its maximum), which the server must not accept.
 * Nothing here names an operation: new routes are walked as they come.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.ts';
import type { DocOperation, OpenApiValidator, SentRequest } from './openapi-validator.ts';

type Obj = Record<string, unknown>;
type Send = (request: SentRequest) => Promise<LightMyRequestResponse>;

/** The demo accounts (README, "Demo accounts"); `session` ones use the cookie, the others the bearer token. */
const ROLES = [
  { email: 'sysops@caretaker.test', session: false, writes: true },
  { email: 'admin@northwind.test', session: true, writes: true },
  { email: 'agent@northwind.test', session: false, writes: true },
  { email: 'contractor@northwind.test', session: false, writes: false },
  { email: 'tenant@northwind.test', session: false, writes: false },
  { email: 'api@northwind.test', session: false, writes: false },
];
const PASSWORD = 'caretaker-demo';
/** Writes that end the caller's own login; walked last, by a role that logs in again. */
const ENDS_LOGIN = /\/(logout|mobile-auth|sessions|password)(\/|$)/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Caller {
  email: string;
  headers: Record<string, string>;
  session: boolean;
  writes: boolean;
  userUuid?: string;
}

export interface WalkSummary {
  /** Operations sent at least one request. */
  operations: number;
  /** Operations that answered 2xx at least once. */
  answered2xx: number;
}

/**
 * Walks every operation.
 * @param send the validation proxy's send
 */
export async function contractWalk(t: TestApp, validator: OpenApiValidator, send: Send): Promise<WalkSummary> {
  const pools = new Map<string, Array<string | number>>();
  const walked = new Set<string>();
  const succeeded = new Set<string>();
  const callers: Caller[] = [];
  let n = 0;

  const login = async (caller: Caller) => {
    const res = await send({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: caller.email, password: PASSWORD }) });
    if (res.statusCode !== 200) throw new Error(`login ${caller.email}: ${res.statusCode} ${res.body}`);
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0]!;
    caller.headers = caller.session ? { cookie } : { authorization: `Bearer ${res.json().token as string}` };
  };
  for (const role of ROLES) {
    const caller: Caller = { ...role, headers: {} };
    await login(caller);
    caller.userUuid = (await send({ method: 'GET', url: '/api/auth/me', headers: caller.headers })).json().data?.uuid;
    callers.push(caller);
  }
  const own = new Set(callers.map((c) => c.userUuid));

  /** Records the ids an answer lists, under the URL that listed them. */
  const collect = (url: string, res: LightMyRequestResponse) => {
    if (!String(res.headers['content-type'] ?? '').includes('json') || res.statusCode >= 300) return;
    const data = (res.json() as { data?: unknown }).data;
    const items = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
    const path = url.split('?')[0]!;
    const key = Array.isArray(data) ? path : path.split('/').slice(0, -1).join('/');
    for (const item of items.slice(0, 5)) {
      const rec = item as Obj;
      const id = rec.uuid ?? rec.id;
      if ((typeof id === 'string' || typeof id === 'number') && !own.has(String(id))) {
        const list = pools.get(key) ?? [];
        if (!list.includes(id)) list.push(id);
        pools.set(key, list);
      }
    }
  };

  const fits = (value: string | number, schema: Obj | undefined) => {
    if (schema?.format === 'uuid') return typeof value === 'string' && UUID.test(value);
    if (schema?.type === 'integer') return typeof value === 'number' || /^\d+$/.test(value);
    return true;
  };
  /** A value for a path parameter: an id listed at the path so far (or one segment below it). */
  const pathValue = (prefix: string, schema: Obj | undefined): string => {
    const depth = prefix.split('/').length;
    for (const [key, ids] of pools) {
      if (key !== prefix && !(key.startsWith(`${prefix}/`) && key.split('/').length === depth + 1)) continue;
      const id = ids.find((v) => fits(v, schema));
      if (id !== undefined) return String(id);
    }
    return schema?.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : schema?.type === 'integer' ? '1' : 'x';
  };
  const anyUuid = (hint: string): string | undefined => {
    const wanted = hint.replace(/_uuids?$/, '');
    for (const [key, ids] of pools) if (key.includes(wanted)) for (const id of ids) if (typeof id === 'string' && UUID.test(id)) return id;
    return undefined;
  };

  /** A value the schema accepts, smallest first (required properties only). */
  const example = (schema: Obj | undefined, name: string): unknown => {
    if (!schema) return 'x';
    const members = (schema.anyOf ?? schema.oneOf) as Obj[] | undefined;
    if (members) return example(members.find((m) => m.type !== 'null') ?? members[0], name);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if ('default' in schema) return schema.default;
    switch (schema.type) {
      case 'object': {
        const props = (schema.properties ?? {}) as Record<string, Obj>;
        return Object.fromEntries(((schema.required ?? []) as string[]).map((k) => [k, example(props[k], k)]));
      }
      case 'array':
        return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => example(schema.items as Obj, name));
      case 'integer':
      case 'number':
        return Number(schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1));
      case 'boolean':
        return true;
      case 'null':
        return null;
      default: {
        n += 1;
        if (schema.format === 'uuid') return anyUuid(name) ?? '00000000-0000-4000-8000-000000000000';
        if (schema.format === 'date') return '2026-12-01';
        if (schema.format === 'date-time') return '2026-12-01T10:00:00Z';
        if (schema.format === 'email') return `walk${n}@example.com`;
        if (schema.format === 'uri') return 'https://hooks.example.com/walk';
        const min = Number(schema.minLength ?? 1);
        return `walk ${n}`.padEnd(min, 'x').slice(0, Number(schema.maxLength ?? 200));
      }
    }
  };

  const urlOf = (operation: DocOperation, override?: string): string => {
    let prefix = '';
    for (const part of operation.template.split('/').slice(1)) {
      if (!part.startsWith('{')) prefix += `/${part}`;
      else {
        const param = operation.op.parameters?.find((p) => p.in === 'path' && p.name === part.slice(1, -1));
        prefix += `/${encodeURIComponent(override ?? pathValue(prefix, param?.schema))}`;
      }
    }
    const query = (operation.op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
    const qs = new URLSearchParams(query.map((p): [string, string] => [p.name, String(example(p.schema, p.name))]));
    return qs.size > 0 ? `${prefix}?${qs}` : prefix;
  };
  const jsonBody = (operation: DocOperation) => operation.op.requestBody?.content['application/json']?.schema;
  const write = (operation: DocOperation) => operation.method !== 'GET' && operation.method !== 'HEAD';

  const csrf = async (caller: Caller) => (await send({ method: 'GET', url: '/api/security/csrf-token', headers: caller.headers })).json().data?.token as string | undefined;

  /**
   * One request of an operation.
   * @param extra overrides of the request made from the document
   * @param probe a request the document refuses: sent without fetching a CSRF token
   */
  const call = async (operation: DocOperation, caller: Caller | undefined, extra: Partial<SentRequest> = {}, probe = false) => {
    const headers: Record<string, string> = { ...(caller?.headers ?? {}) };
    const schema = jsonBody(operation);
    let body: string | undefined;
    if (write(operation) && schema && !operation.op.requestBody?.content['multipart/form-data']) {
      body = JSON.stringify(example(schema, ''));
      headers['content-type'] = 'application/json';
    }
    if (write(operation) && caller && !probe) {
      const token = await csrf(caller);
      if (token) headers['x-csrf-token'] = token;
    }
    const request: SentRequest = { method: operation.method, url: urlOf(operation), headers, body, ...extra, ...(extra.headers ? { headers: { ...headers, ...extra.headers } } : {}) };
    const res = await send(request);
    const id = `${operation.method} ${operation.template}`;
    walked.add(id);
    if (res.statusCode < 300) succeeded.add(id);
    if (operation.method === 'GET') collect(request.url, res);
    if (res.statusCode === 401 && caller && (await send({ method: 'GET', url: '/api/auth/me', headers: caller.headers })).statusCode === 401) await login(caller);
    return res;
  };

  const params = (o: DocOperation) => (o.template.match(/\{/g) ?? []).length;
  const ops = validator.operations;
  const reads = ops.filter((o) => !write(o)).sort((a, b) => params(a) - params(b));
  const writes = ops.filter((o) => write(o) && !ENDS_LOGIN.test(o.template));
  const order = (o: DocOperation) => ({ POST: 0, PUT: 1, PATCH: 1, DELETE: 2 })[o.method] ?? 3;
  writes.sort((a, b) => order(a) - order(b) || params(a) - params(b));
  const last = ops.filter((o) => write(o) && ENDS_LOGIN.test(o.template));

  // The reads as SysOps first, to list ids; then every operation anonymously and as every role
  // (writes as the roles that write), the writes that end a login last.
  for (const operation of reads) await call(operation, callers[0]);
  for (const round of [reads, writes, last]) {
    for (const operation of round) {
      await call(operation, undefined);
      for (const caller of callers) if (!write(operation) || caller.writes) await call(operation, caller);
    }
  }

  // Requests the document refuses, as the SysOps account: the server must not accept them.
  const sysops = callers[0]!;
  for (const operation of ops) {
    const uuidParam = operation.op.parameters?.find((p) => p.in === 'path' && p.schema?.format === 'uuid');
    if (uuidParam) await call(operation, sysops, { url: urlOf(operation, 'not-a-uuid') }, true);
    const max = operation.op.parameters?.find((p) => p.in === 'query' && typeof p.schema?.maximum === 'number');
    if (max) {
      const url = urlOf(operation);
      await call(operation, sysops, { url: `${url}${url.includes('?') ? '&' : '?'}${max.name}=${Number(max.schema!.maximum) + 1}` }, true);
    }
    if (!write(operation)) continue;
    if (operation.op.requestBody?.required) await call(operation, sysops, { body: undefined, headers: { 'content-type': '' } }, true);
    await call(operation, sysops, { body: 'walk', headers: { 'content-type': 'text/plain' } }, true);
  }
  return { operations: walked.size, answered2xx: succeeded.size };
}
