/**
 * Checks an HTTP answer against the OpenAPI 3.1 document (docs/api.md, "OpenAPI document"): its
 * status is documented (exactly, as `4XX`, or as `default`), its Content-Type is one of the
 * documented media types of that status (a body-less status sends no body), its JSON body passes
 * the documented schema, and every header the document marks required is present. The schemas
 * are checked by Ajv's JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1), with the
 * document itself registered so that `#/components/...` references resolve.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Obj = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Obj>>;
  components?: Obj;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** `~` and `/` escaped for a JSON pointer segment. */
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** A validator of answers for one document. */
export class AnswerValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // A file's schema says `format: binary`; its bytes are not JSON and are never checked here.
    this.ajv.addFormat('binary', true);
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'x-permission']);
    this.ajv.addSchema(doc as object, 'openapi');
  }

  /**
   * The reasons an answer departs from the document (empty when it conforms).
   * @param method lower-case method of the operation
   * @param path the document's path (with `{name}` placeholders)
   */
  check(method: string, path: string, answer: Answer): string[] {
    const op = this.doc.paths[path]?.[method] as { responses?: Record<string, Obj> } | undefined;
    if (!op?.responses) return [`operation ${method.toUpperCase()} ${path} is not in the document`];
    const status = String(answer.status);
    const key = op.responses[status] ? status : op.responses[`${status[0]}XX`] ? `${status[0]}XX` : op.responses.default ? 'default' : undefined;
    if (!key) return [`status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    const response = op.responses[key] as { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean }> };
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && answer.headers[name.toLowerCase()] === undefined) problems.push(`required header ${name} is missing`);
    }
    const contentType = String(answer.headers['content-type'] ?? '');
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const content = response.content;
    if (!content || Object.keys(content).length === 0) {
      if (answer.body.length > 0) problems.push(`status ${status} documents no body, but ${answer.body.length} bytes of ${contentType || 'unknown type'} were sent`);
      return problems;
    }
    if (answer.status === 304 || answer.status === 204) return problems;
    // Media types compare without their parameters (`text/csv` is `text/csv; charset=utf-8`).
    const bare = (type: string) => type.split(';')[0]!.trim().toLowerCase();
    const documented = Object.keys(content).find((type) => bare(type) === mediaType || matchesWildcard(bare(type), mediaType));
    if (!documented) return [...problems, `content type ${contentType || '(none)'} is not documented for ${status} (documented: ${Object.keys(content).join(', ')})`];
    if (!/json$/.test(mediaType)) return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, `${status} ${mediaType} body is not JSON: ${answer.body.slice(0, 120)}`];
    }
    const ref = `openapi#/paths/${pointer(path)}/${method}/responses/${key}/content/${pointer(documented)}/schema`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`);
      problems.push(`${status} body departs from its schema: ${errors.join('; ')}`);
    }
    return problems;
  }
}

function matchesWildcard(documented: string, actual: string): boolean {
  if (documented === '*/*') return true;
  return documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1));
}
