/**
 * An in-process validation proxy: checks requests and responses against the OpenAPI 3.1 document
 * the way Prism's validation proxy does (docs/api.md, "OpenAPI document"), with Ajv's 2020-12
 * dialect (OpenAPI 3.1's). Used by test/http/walkthroughs-http.test.ts and the contract walk
 * (test/contract/contract-walk.test.ts).
 *
 * Request: the operation (static path segments before parameters, as the router), the security
 * requirement (bearer header or session cookie), path, query and header parameters (strings
 * coerced to their schemas), the body's media type and schema, a required body.
 * Response: a documented status (exactly, as `4XX`, or as `default`), every header the document
 * marks required, no body where the status documents none, a documented media type (ranges like
 * image/* included), and a JSON body (`application/json`, `application/problem+json`, ...) that
 * matches its schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Obj = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Obj;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Obj }> };
  /** A header given as a `$ref` has no `required` of its own here, and is not checked. */
  responses: Record<string, { content?: Record<string, { schema?: Obj }>; headers?: Record<string, { required?: boolean }> }>;
  security?: Array<Record<string, string[]>>;
}

/** An OpenAPI 3.1 document, as far as the validator reads it (an operation's other keys are kept as they are). */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation & Obj>>;
}

/** One operation of the document, with its path template. */
export interface DocOperation {
  method: string;
  template: string;
  op: Operation;
}

/** What a request carried. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
  /** The raw body, or undefined for none. */
  body?: string | Buffer | undefined;
}

/** What the server answered. */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}

function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: coerce ? 'array' : false, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  return ajv;
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(value: unknown): string {
  return String(value ?? '').split(';')[0]!.trim().toLowerCase();
}

function matchesRange(sent: string, documented: string): boolean {
  const doc = mediaType(documented);
  if (doc === '*/*' || doc === sent) return true;
  return doc.endsWith('/*') && sent.startsWith(doc.slice(0, -1));
}

export class OpenApiValidator {
  readonly operations: DocOperation[];
  private readonly strict = makeAjv(false);
  private readonly loose = makeAjv(true);
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.operations = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) this.operations.push({ method: method.toUpperCase(), template, op });
    }
    // Static segments before parameters, segment by segment (the router's order).
    const key = (t: string) => t.split('/').map((s) => (s.startsWith('{') ? '\uffff' : s));
    this.operations.sort((a, b) => {
      const [x, y] = [key(a.template), key(b.template)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return x.length - y.length;
    });
  }

  /** The operation a method and path (no query) resolve to, with its path values. */
  find(method: string, path: string): { operation: DocOperation; params: Record<string, string> } | undefined {
    const segments = path.replace(/\/+$/, '').split('/');
    for (const operation of this.operations) {
      const parts = operation.template.split('/');
      if (operation.method !== method.toUpperCase() || parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const ok = parts.every((p, i) => {
        if (!p.startsWith('{')) return p === segments[i];
        if (segments[i] === '') return false;
        params[p.slice(1, -1)] = decodeURIComponent(segments[i]!);
        return true;
      });
      if (ok) return { operation, params };
    }
    return undefined;
  }

  private validator(ajv: Ajv2020, schema: Obj, cacheKey: string): ValidateFunction {
    let fn = this.compiled.get(cacheKey);
    if (!fn) {
      fn = ajv.compile(schema);
      this.compiled.set(cacheKey, fn);
    }
    return fn;
  }

  private check(ajv: Ajv2020, schema: Obj, data: unknown, cacheKey: string, label: string): string[] {
    const fn = this.validator(ajv, schema, cacheKey);
    if (fn(data)) return [];
    const e = fn.errors?.[0];
    return [`${label}${e?.instancePath ?? ''} ${e?.message ?? 'invalid'}${e?.params ? ` ${JSON.stringify(e.params)}` : ''}`];
  }

  /**
   * The reasons the document refuses a request (empty when it accepts it).
   * @returns problems such as "no operation", "security", "query.limit must be <= 200"
   */
  checkRequest(request: SentRequest): string[] {
    const [path, query = ''] = request.url.split('?');
    const found = this.find(request.method, path!);
    if (!found) return ['no operation'];
    const { operation, params } = found;
    const op = operation.op;
    const id = `${operation.method} ${operation.template}`;
    const problems: string[] = [];
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));

    if (op.security && op.security.length > 0) {
      const has = (scheme: string) =>
        scheme === 'bearer' ? /^Bearer\s+\S/i.test(headers.authorization ?? '') : /(^|;\s*)caretaker_session=/.test(headers.cookie ?? '');
      if (!op.security.some((requirement) => Object.keys(requirement).every(has))) problems.push('security');
    }

    const values: Record<string, Obj> = { path: params, query: {}, header: {} };
    for (const [k, v] of new URLSearchParams(query)) {
      const prev = values.query![k];
      values.query![k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) values.header![k] = v;
    for (const where of ['path', 'query', 'header'] as const) {
      const declared = (op.parameters ?? []).filter((p) => p.in === where);
      if (declared.length === 0) continue;
      const schema: Obj = {
        type: 'object',
        properties: Object.fromEntries(declared.map((p) => [where === 'header' ? p.name.toLowerCase() : p.name, p.schema ?? {}])),
        required: declared.filter((p) => p.required || where === 'path').map((p) => (where === 'header' ? p.name.toLowerCase() : p.name)),
      };
      problems.push(...this.check(this.loose, schema, structuredClone(values[where]), `${id} ${where}`, where));
    }

    const raw = request.body === undefined ? '' : request.body.toString();
    if (raw.length === 0) {
      if (op.requestBody?.required) problems.push('body required');
      return problems;
    }
    const type = mediaType(headers['content-type']);
    const content = op.requestBody?.content ?? {};
    const documented = Object.keys(content).find((k) => matchesRange(type, k));
    if (!documented) return [...problems, `body media type ${type || 'none'}`];
    const schema = content[documented]!.schema;
    if (!schema) return problems;
    if (type === 'application/json') {
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        return [...problems, 'body is not JSON'];
      }
      problems.push(...this.check(this.strict, schema, data, `${id} body json`, 'body'));
    } else if (type === 'application/x-www-form-urlencoded') {
      const data: Obj = {};
      for (const [k, v] of new URLSearchParams(raw)) data[k] = v;
      problems.push(...this.check(this.loose, schema, data, `${id} body form`, 'body'));
    }
    return problems;
  }

  /**
   * The ways a response departs from the document (empty when it matches).
   * @param template the operation's path template when the caller knows it (the contract walk);
   *   otherwise the operation is found from the request's path, as the router would
   * @returns problems such as "status 201 undocumented", "media type text/html", "body/data/0 must have required property 'uuid'"
   */
  checkResponse(request: Pick<SentRequest, 'method' | 'url'>, answer: Answer, template?: string): string[] {
    const found = template
      ? this.operations.find((o) => o.template === template && o.method === request.method.toUpperCase())
      : this.find(request.method, request.url.split('?')[0]!)?.operation;
    if (!found) return answer.statusCode === 404 || answer.statusCode === 405 ? [] : [`status ${answer.statusCode} for a path without operation`];
    const status = String(answer.statusCode);
    const responses = found.op.responses;
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) return [`status ${status} undocumented`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (header.required && answer.headers[name.toLowerCase()] === undefined) problems.push(`status ${status}: required header ${name} is missing`);
    }
    const content = documented.content ?? {};
    const type = mediaType(answer.headers['content-type']);
    if (Object.keys(content).length === 0) {
      if (answer.rawPayload.length > 0) problems.push(`status ${status} documents no body, but ${answer.rawPayload.length} bytes of ${type || 'unknown type'} were sent`);
      return problems;
    }
    if (answer.rawPayload.length === 0 && (answer.statusCode === 204 || answer.statusCode === 304 || request.method.toUpperCase() === 'HEAD')) return problems;
    const key = Object.keys(content).find((k) => matchesRange(type, k));
    if (!key) return [...problems, `status ${status}: media type ${type || 'none'} undocumented (${Object.keys(content).join(', ')})`];
    const schema = content[key]!.schema;
    if (!schema || !/json$/.test(type)) return problems;
    let data: unknown;
    try {
      data = JSON.parse(answer.rawPayload.toString('utf8'));
    } catch {
      return [...problems, `status ${status}: body is not JSON`];
    }
    return [...problems, ...this.check(this.strict, schema, data, `${found.method} ${found.template} ${status} ${key}`, `status ${status}: body`)];
  }
}
