/**
 * How much of the API the console reaches (docs/console.md "Operations the console calls").
 *
 * Reads every operation (method and path) of clients/typescript/openapi.json, then every call of
 * the typed client in console/src: a call `x.GET('/api/...')` (or POST, PUT, PATCH, DELETE) whose
 * first argument is a string literal naming a path of the document, found with TypeScript's
 * compiler API (a path built at run time, or a plain `fetch`, does not count). It prints how many
 * operations are called and the percentage, then checks docs/console.md: every operation the
 * console does not call must have a row `| METHOD /path | why |` in the table between the markers
 * `<!-- coverage:uncalled -->` and `<!-- /coverage:uncalled -->` with a non-empty reason. A row of
 * an operation the console calls (or the document no longer has) is reported as stale, a warning:
 * a branch that adds calls must not fail another's check.
 *
 * Not every operation is meant for a person in the console. A row whose reason starts with
 * `machine:` (probes, metrics, provider callbacks, the mobile and CSRF tokens, the event stream)
 * or `signed link:` (pages reached from an e-mailed link, their own HTML or read without a
 * session) names an operation not meant for agency staff: it leaves the denominator of the staff
 * figure, `called / (total - those rows)` (docs/console.md "Operations the console calls"; the
 * 80 % goal is on this figure). Only an uncalled operation can have a row, so no called operation
 * is ever excluded; every other row ("not yet: ...", "called: ... through the outbox") stays in
 * the denominator, uncounted.
 *
 * `node scripts/console-coverage.ts` (`npm run console:coverage`) exits 1 when a row is missing;
 * `--list` prints the uncalled operations that lack a row, one per line, to paste into the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the OpenAPI document as "METHOD /path" (upper-case method). */
export function documentOperations(openapi: { paths: Record<string, Record<string, unknown>> }): string[] {
  const ops: string[] = [];
  for (const [p, item] of Object.entries(openapi.paths)) for (const m of METHODS) if (item[m]) ops.push(`${m.toUpperCase()} ${p}`);
  return ops.sort();
}

/** The .ts and .tsx files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/**
 * The operations called in one source text: each `<expr>.GET|POST|PUT|PATCH|DELETE('<literal>', ...)`.
 * @param fileName used by the parser to pick TSX or TS
 * @returns "METHOD /path" strings (may repeat)
 */
export function calledOperations(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const first = node.arguments[0];
      if ((METHODS as readonly string[]).includes(method.toLowerCase()) && method === method.toUpperCase() && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
        found.push(`${method} ${first.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The rows of the uncalled table in docs/console.md: operation to reason. */
export function listedReasons(doc: string): Map<string, string> {
  const start = doc.indexOf('<!-- coverage:uncalled -->');
  const end = doc.indexOf('<!-- /coverage:uncalled -->');
  const rows = new Map<string, string>();
  if (start < 0 || end < start) return rows;
  for (const line of doc.slice(start, end).split('\n')) {
    const m = /^\|\s*`?(GET|POST|PUT|PATCH|DELETE) ([^`|\s]+)`?\s*\|(.*)\|\s*$/.exec(line);
    if (m) rows.set(`${m[1]} ${m[2]}`, m[3]!.trim());
  }
  return rows;
}

/** The reasons that mark an operation as not meant for agency staff (left out of the staff figure). */
export const NOT_FOR_STAFF = /^(machine|signed link):/i;

/** One decimal place of a percentage: 72.4. */
const percentOf = (part: number, whole: number) => (whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10);

/**
 * The coverage of the console: operations called, their total and percentage; the operations meant
 * for agency staff (total less the rows marked NOT_FOR_STAFF) and the percentage of those called;
 * the doc's missing and stale rows.
 */
export function coverageReport(): {
  called: number;
  total: number;
  percent: number;
  staffTotal: number;
  staffPercent: number;
  notForStaff: string[];
  uncalled: string[];
  missing: string[];
  stale: string[];
} {
  const openapi = JSON.parse(readFileSync(path.join(root, 'clients/typescript/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const ops = documentOperations(openapi);
  const known = new Set(ops);
  const called = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'console/src')))
    for (const op of calledOperations(file, readFileSync(file, 'utf8'))) if (known.has(op)) called.add(op);
  const uncalled = ops.filter((o) => !called.has(o));
  const listed = listedReasons(readFileSync(path.join(root, 'docs/console.md'), 'utf8'));
  const missing = uncalled.filter((o) => !listed.get(o));
  const stale = [...listed.keys()].filter((o) => called.has(o) || !known.has(o));
  const notForStaff = uncalled.filter((o) => NOT_FOR_STAFF.test(listed.get(o) ?? ''));
  const staffTotal = ops.length - notForStaff.length;
  return { called: called.size, total: ops.length, percent: percentOf(called.size, ops.length), staffTotal, staffPercent: percentOf(called.size, staffTotal), notForStaff, uncalled, missing, stale };
}

function main() {
  const r = coverageReport();
  if (process.argv.includes('--list')) {
    for (const o of r.missing) console.log(`| \`${o}\` |  |`);
    return;
  }
  console.log(`The console calls ${r.called} of the ${r.total} operations of clients/typescript/openapi.json (${r.percent} %); the other ${r.uncalled.length} are listed in docs/console.md with why.`);
  console.log(
    `Of the ${r.staffTotal} operations meant for agency staff (the ${r.total} less ${r.notForStaff.length} listed as "machine:" or "signed link:"), it calls ${r.called} (${r.staffPercent} %).`,
  );
  if (r.missing.length) console.error(`Not called and not listed with a reason in docs/console.md:\n  ${r.missing.join('\n  ')}`);
  if (r.stale.length) console.warn(`Listed in docs/console.md as not called, but called (or not in the document); remove these rows:\n  ${r.stale.join('\n  ')}`);
  if (r.missing.length) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
