/**
 * The contract walk's requests (docs/api.md, "Contract walk"): for one operation of the OpenAPI
 * document, a valid request built from its schemas and the demo data (path values of real records
 * of Northwind Lettings, a body with every required field, a file for an upload), the same
 * request with one required field left out, and the same request with an unknown field added.
 */
import { sql } from 'kysely';
import type { TestApp } from '../helpers/app.ts';

type Obj = Record<string, unknown>;
export type Schema = Obj;

export interface Operation {
  method: string;
  path: string;
  permission: string;
  pathParams: string[];
  query: { properties: Record<string, Schema>; required: string[] };
  /** The JSON (or form) body schema, when the operation takes one. */
  body: Schema | null;
  bodyRequired: boolean;
  /** The multipart body schema, for an upload. */
  multipart: Schema | null;
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: { paths: Record<string, Record<string, Obj>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
      const query = params.filter((p) => p.in === 'query');
      const content = ((op.requestBody as Obj | undefined)?.content ?? {}) as Record<string, { schema?: Schema }>;
      ops.push({
        method: method.toUpperCase(),
        path,
        permission: String(op['x-permission'] ?? 'public'),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: { properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])), required: query.filter((p) => p.required).map((p) => p.name) },
        body: (content['application/json'] ?? content['application/x-www-form-urlencoded'])?.schema ?? null,
        bodyRequired: (op.requestBody as { required?: boolean } | undefined)?.required === true,
        multipart: content['multipart/form-data']?.schema ?? null,
      });
    }
  }
  return ops;
}

/** Real values of Northwind Lettings' records, by what they name. */
export type Pool = Record<string, string | number>;

/** Reads the pool of real values from the demo data. */
export async function loadPool(t: TestApp): Promise<Pool> {
  const db = t.db;
  const agency = await db.selectFrom('agencies').select(['id', 'uuid']).where('name', '=', 'Northwind Lettings').executeTakeFirstOrThrow();
  const first = async (query: ReturnType<typeof sql>) => {
    const rows = (await query.execute(db)).rows as Array<Record<string, string | number>>;
    return rows[0] ?? {};
  };
  const a = agency.id;
  const job = await first(sql`select j.uuid, j.id from jobs j join contractors c on c.id = j.contractor_id where j.agency_id = ${a} and c.company_name like 'Fletcher%' order by j.id desc limit 1`);
  const pool: Pool = { agency_uuid: agency.uuid, job_uuid: job.uuid ?? '', job_id: job.id ?? 0 };
  const add = async (name: string, query: ReturnType<typeof sql>) => {
    // A table without the column (or without the record) leaves the name out: its paths get a
    // well-formed unknown value and answer 404, which the document lists too.
    const row = await first(query).catch(() => ({}) as Record<string, string | number>);
    const value = Object.values(row)[0];
    if (value !== undefined && value !== null) pool[name] = value;
  };
  await add('note_uuid', sql`select uuid from job_notes where job_id = ${pool.job_id} order by id limit 1`);
  await add('any_note_uuid', sql`select n.uuid from job_notes n join jobs j on j.id = n.job_id where j.agency_id = ${a} order by n.id limit 1`);
  await add('document_uuid', sql`select uuid from job_files where job_id = ${pool.job_id} and kind = 'document' limit 1`);
  await add('photo_uuid', sql`select uuid from job_files where job_id = ${pool.job_id} and kind = 'photo' limit 1`);
  await add('any_document', sql`select j.uuid || '/' || f.uuid from job_files f join jobs j on j.id = f.job_id where j.agency_id = ${a} and f.kind = 'document' limit 1`);
  await add('any_photo', sql`select j.uuid || '/' || f.uuid from job_files f join jobs j on j.id = f.job_id where j.agency_id = ${a} and f.kind = 'photo' limit 1`);
  await add('quote', sql`select j.uuid || '/' || q.uuid from quotes q join jobs j on j.id = q.job_id where j.agency_id = ${a} order by q.id limit 1`);
  await add('user_uuid', sql`select u.uuid from users u join roles r on r.id = u.role_id where u.agency_id = ${a} and r.code = 'agent' and u.email <> 'agent@northwind.test' order by u.id limit 1`);
  await add('session_id', sql`select 1`);
  await add('time_range_id', sql`select id from job_time_ranges where agency_id = ${a} order by id limit 1`);
  await add('trade_id', sql`select id from trades where agency_id = ${a} or agency_id is null order by id limit 1`);
  await add('job_type_id', sql`select id from job_types order by id limit 1`);
  await add('address_uuid', sql`select uuid from addresses where agency_id = ${a} order by id limit 1`);
  await add('building_uuid', sql`select uuid from buildings where agency_id = ${a} order by id limit 1`);
  await add('tenant', sql`select t.uuid || '/' || ad.uuid from tenants t join tenant_addresses ta on ta.tenant_id = t.id join addresses ad on ad.id = ta.address_id where t.agency_id = ${a} order by t.id limit 1`);
  await add('tenant_uuid', sql`select uuid from tenants where agency_id = ${a} order by id limit 1`);
  await add('contractor_uuid', sql`select uuid from contractors where agency_id = ${a} and company_name like 'Fletcher%' limit 1`);
  await add('certification', sql`select c.uuid || '/' || cc.uuid from contractor_certifications cc join contractors c on c.id = cc.contractor_id where c.agency_id = ${a} order by cc.id limit 1`);
  await add('consent_uuid', sql`select uuid from gdpr_consents where agency_id = ${a} order by id limit 1`);
  await add('landlord_uuid', sql`select uuid from landlords where agency_id = ${a} order by id limit 1`);
  await add('landlord_property', sql`select l.uuid || '/' || ad.uuid from landlord_properties lp join landlords l on l.id = lp.landlord_id join addresses ad on ad.id = lp.address_id where l.agency_id = ${a} order by lp.landlord_id, lp.address_id limit 1`);
  await add('approval_uuid', sql`select uuid from approval_requests where agency_id = ${a} order by id limit 1`);
  await add('role_id', sql`select id from roles where agency_id = ${a} order by id limit 1`);
  await add('builtin_role_id', sql`select id from roles where code = 'agent' and agency_id is null limit 1`);
  await add('branch_uuid', sql`select uuid from branches where agency_id = ${a} order by id limit 1`);
  await add('webhook_uuid', sql`select uuid from webhook_endpoints where agency_id = ${a} order by id limit 1`);
  await add('subscription_uuid', sql`select uuid from report_subscriptions where agency_id = ${a} order by id limit 1`);
  await add('template_id', sql`select id from message_template_versions where agency_id = ${a} or agency_id is null order by id limit 1`);
  await add('notice_uuid', sql`select uuid from notices where agency_id = ${a} order by id limit 1`);
  await add('blacklist_uuid', sql`select uuid from security_blacklist order by id limit 1`);
  await add('price_item_uuid', sql`select uuid from price_items where agency_id = ${a} order by id limit 1`);
  await add('invoice_uuid', sql`select uuid from invoices where agency_id = ${a} order by id limit 1`);
  await add('works_order_link_uuid', sql`select uuid from works_order_links where agency_id = ${a} order by id limit 1`);
  await add('quote_request_uuid', sql`select uuid from quote_requests where agency_id = ${a} order by id limit 1`);
  await add('compliance_type_uuid', sql`select uuid from compliance_item_types where agency_id = ${a} order by id limit 1`);
  await add('compliance_item_uuid', sql`select uuid from compliance_items where agency_id = ${a} order by id limit 1`);
  await add('flow_code', sql`select code from triage_flows where agency_id = ${a} order by id limit 1`);
  await add('tenant_report_uuid', sql`select uuid from tenant_reports where agency_id = ${a} order by id limit 1`);
  await add('import_uuid', sql`select uuid from imports where agency_id = ${a} order by id limit 1`);
  return pool;
}

/** `seg/param` of the path (its segment before the parameter and the parameter). */
function pathValue(path: string, param: string, pool: Pool): string | number {
  const pair = (key: string, i: 0 | 1) => String(pool[key] ?? '').split('/')[i] ?? '';
  const before = path.split('/').slice(0, path.split('/').indexOf(`{${param}}`)).join('/');
  const rules: Array<[RegExp, string, () => string | number]> = [
    [/^\/api\/jobs\/\{uuid\}\/(documents)$/, 'uuid', () => pair('any_document', 0)],
    [/^\/api\/jobs\/\{uuid\}\/(photos)$/, 'uuid', () => pair('any_photo', 0)],
    [/^\/api\/jobs\/\{uuid\}\/documents$/, 'file_uuid', () => pair('any_document', 1)],
    [/^\/api\/jobs\/\{uuid\}\/photos$/, 'file_uuid', () => pair('any_photo', 1)],
    [/^\/api\/jobs\/\{uuid\}\/quotes$/, 'quote_uuid', () => pair('quote', 1)],
    [/^\/api\/users\/me\/sessions$/, 'id', () => 1],
    [/^\/api\/users$/, 'uuid', () => pool.user_uuid!],
    [/^\/api\/jobs\/time-ranges$/, 'id', () => pool.time_range_id!],
    [/^\/api\/jobs$/, 'uuid', () => pool.job_uuid!],
    [/^\/api\/jobs\/\{uuid\}\/notes$/, 'note_uuid', () => pool.note_uuid ?? pool.any_note_uuid!],
    [/^\/api\/jobs\/\{uuid\}\/threads$/, 'audience', () => 'tenant'],
    [/^\/api\/addresses$/, 'uuid', () => pool.address_uuid!],
    [/^\/api\/buildings$/, 'uuid', () => pool.building_uuid ?? ''],
    [/^\/api\/tenants$/, 'uuid', () => pair('tenant', 0)],
    [/^\/api\/tenants\/\{uuid\}\/addresses$/, 'address_uuid', () => pair('tenant', 1)],
    [/^\/api\/contractors\/trades$/, 'id', () => pool.trade_id!],
    [/^\/api\/contractors$/, 'uuid', () => pool.contractor_uuid!],
    [/^\/api\/contractors\/\{uuid\}\/certifications$/, 'cert_uuid', () => pair('certification', 1)],
    [/^\/api\/gdpr\/consents$/, 'uuid', () => pool.consent_uuid ?? ''],
    [/^\/api\/landlords\/properties$/, 'address_uuid', () => pair('landlord_property', 1)],
    [/^\/api\/landlords\/\{uuid\}\/properties$/, 'address_uuid', () => pair('landlord_property', 1)],
    [/^\/api\/landlords\/approvals$/, 'uuid', () => pool.approval_uuid ?? ''],
    [/^\/api\/landlords$/, 'uuid', () => pair('landlord_property', 0) || pool.landlord_uuid!],
    [/^\/api\/admin\/roles$/, 'id', () => pool.role_id ?? pool.builtin_role_id!],
    [/^\/api\/admin\/branches$/, 'uuid', () => pool.branch_uuid!],
    [/^\/api\/webhooks\/endpoints$/, 'uuid', () => pool.webhook_uuid ?? ''],
    [/^\/api\/reports\/subscriptions$/, 'uuid', () => pool.subscription_uuid ?? ''],
    [/^\/api\/messaging\/templates$/, 'id', () => pool.template_id ?? 1],
    [/^\/api\/notices$/, 'uuid', () => pool.notice_uuid ?? ''],
    [/^\/api\/security\/blacklist$/, 'uuid', () => pool.blacklist_uuid ?? ''],
    [/^\/api\/pricing\/items$/, 'uuid', () => pool.price_item_uuid ?? ''],
    [/^\/api\/pricing\/items\/\{uuid\}\/contractor-rates$/, 'contractor_uuid', () => pool.contractor_uuid!],
    [/^\/api\/invoices\/export$/, 'package', () => 'xero'],
    [/^\/api\/invoices\/export\/\{package\}$/, 'kind', () => 'bills'],
    [/^\/api\/invoices$/, 'uuid', () => pool.invoice_uuid ?? ''],
    [/^\/api\/recharges\/export$/, 'package', () => 'xero'],
    [/^\/api\/works-order-links$/, 'uuid', () => pool.works_order_link_uuid ?? ''],
    [/^\/api\/quote-requests$/, 'uuid', () => pool.quote_request_uuid ?? ''],
    [/^\/api\/compliance\/types$/, 'uuid', () => pool.compliance_type_uuid ?? ''],
    [/^\/api\/compliance\/items$/, 'uuid', () => pool.compliance_item_uuid ?? ''],
    [/^\/api\/compliance/, 'uuid', () => pool.compliance_item_uuid ?? ''],
    [/^\/api\/hazards\/properties$/, 'uuid', () => pool.address_uuid!],
    [/^\/api\/reporting\/flows$/, 'code', () => pool.flow_code ?? 'boiler'],
    [/^\/api\/reporting\/reports$/, 'uuid', () => pool.tenant_report_uuid ?? ''],
    [/^\/api\/reporting\/on-call$/, 'branch_uuid', () => pool.branch_uuid!],
    [/^\/api\/agencies$/, 'uuid', () => pool.agency_uuid!],
    [/^\/api\/imports\/templates$/, 'entity', () => 'tenants'],
    [/^\/api\/imports$/, 'uuid', () => pool.import_uuid ?? ''],
  ];
  for (const [re, name, value] of rules) if (name === param && re.test(before)) return value() || NO_RECORD;
  // A job's own sub-records (its uuid first): the job of the sub-record the path names.
  if (param === 'uuid' && before === '/api/jobs') return pool.job_uuid!;
  if (/token/.test(param)) return 'walk-token-that-is-not-a-signed-link';
  return NO_RECORD;
}

/** A well-formed uuid of no record: where the demo has no record of a kind, its paths answer 404. */
const NO_RECORD = '00000000-0000-4000-8000-000000000000';

/** The URL path of the operation with real values in its parameters. */
export function pathFor(op: Operation, pool: Pool): string {
  let url = op.path;
  // Sub-records carry their own job (or contractor) uuid: fill the pair together.
  const pairs: Array<[RegExp, string]> = [
    [/^\/api\/jobs\/\{uuid\}\/documents\/\{file_uuid\}/, 'any_document'],
    [/^\/api\/jobs\/\{uuid\}\/photos\/\{file_uuid\}/, 'any_photo'],
    [/^\/api\/jobs\/\{uuid\}\/quotes\/\{quote_uuid\}/, 'quote'],
    [/^\/api\/contractors\/\{uuid\}\/certifications\/\{cert_uuid\}/, 'certification'],
    [/^\/api\/tenants\/\{uuid\}\/addresses\/\{address_uuid\}/, 'tenant'],
    [/^\/api\/landlords\/\{uuid\}\/properties\/\{address_uuid\}/, 'landlord_property'],
  ];
  const pair = pairs.find(([re]) => re.test(op.path));
  if (pair) {
    const [x, y] = String(pool[pair[1]] ?? '').split('/');
    const names = op.pathParams;
    url = url.replace(`{${names[0]}}`, x || NO_RECORD).replace(`{${names[1]}}`, y || NO_RECORD);
  }
  for (const name of op.pathParams) url = url.replace(`{${name}}`, encodeURIComponent(String(pathValue(op.path, name, pool))));
  return url;
}

/** A value that passes the schema, from the pool where the field names a record. */
export function sample(schema: Schema | undefined, name: string, pool: Pool, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  const members = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(members)) {
    const member = members.find((m) => m.type !== 'null') ?? members[0];
    return sample(member, name, pool, depth + 1);
  }
  if (Array.isArray(schema.allOf)) return sample(Object.assign({}, ...(schema.allOf as Schema[])), name, pool, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((x) => x !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const out: Obj = {};
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      for (const key of (schema.required ?? []) as string[]) out[key] = sample(props[key], key, pool, depth + 1);
      // A partial update needs a field to change: the first one that is not the CSRF token.
      const min = Number(schema.minProperties ?? 0);
      for (const key of Object.keys(props)) {
        if (Object.keys(out).length >= min) break;
        if (key !== 'csrf_token' && !(key in out)) out[key] = sample(props[key], key, pool, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = Number(schema.minItems ?? 0);
      return Array.from({ length: Math.max(min, 1) }, () => sample(schema.items as Schema, name.replace(/s$/, ''), pool, depth + 1));
    }
    case 'integer':
    case 'number': {
      const named = pool[name];
      if (typeof named === 'number') return named;
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema, name, pool);
    default:
      return undefined;
  }
}

function sampleString(schema: Schema, name: string, pool: Pool): string {
  const format = schema.format as string | undefined;
  if (format === 'date') return '2026-12-10';
  if (format === 'date-time') return '2026-12-10T10:00:00Z';
  if (format === 'email') return 'walk@example.test';
  if (format === 'uri' || format === 'url' || /url$/.test(name)) return 'https://hooks.example.test/walk';
  if (format === 'uuid' || /uuid$/.test(name)) {
    const named = pool[name] ?? pool[`${name.replace(/_uuid$/, '')}_uuid`];
    if (typeof named === 'string') return named.split('/')[0]!;
    return String(pool.job_uuid);
  }
  if (/time$|^(starts|ends)_at$/.test(name) && typeof schema.pattern === 'string' && schema.pattern.includes(':')) return '09:00';
  if (/postcode/.test(name)) return 'LS6 3HN';
  if (/phone|mobile/.test(name)) return '+447700900123';
  if (/colou?r/.test(name)) return '#123456';
  if (/password/.test(name)) return 'walk-password-long-enough-1';
  const min = Number(schema.minLength ?? 1);
  const max = Number(schema.maxLength ?? 64);
  const text = `Walk ${name}`.padEnd(min, 'x');
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

/** A 1×1 PNG and a one-page PDF, for uploads. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 3 3]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** A multipart/form-data body of the fields and one file. */
export function multipartBody(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer } | null): { payload: Buffer; type: string } {
  const boundary = '----caretakerwalk7d1f';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}
