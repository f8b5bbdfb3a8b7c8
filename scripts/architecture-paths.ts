/**
 * Writes the file-by-file listing of the two hot paths (the jobs list and job creation) into
 * docs/architecture.md, between the marker comments `<!-- paths:NAME -->` and `<!-- /paths:NAME -->`.
 *
 * Each path starts at one route's handler (found by method and URL in its route file). The script
 * follows, with TypeScript's compiler API, every function, constant or class the handler refers to,
 * then everything those refer to, transitively, and lists each file of `src/` that defines one of
 * them, in the order first reached, with the first sentence of the file's leading docstring. It
 * stops at `src/db/` (listed, not followed) and at node_modules (neither). Types are not followed:
 * only what runs. Hooks the pipeline runs around the handler (src/http/pipeline.ts, the
 * idempotency hooks) are not reached from the handler and are described in the prose.
 *
 * `node scripts/architecture-paths.ts` rewrites the listings; `--check` (CI, `npm run
 * architecture:check`) exits 1 when docs/architecture.md differs from what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const docPath = path.join(root, 'docs/architecture.md');

/** A hot path: the route whose handler it starts from. */
interface HotPath {
  name: string;
  title: string;
  routeFile: string;
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  url: string;
}

const PATHS: HotPath[] = [
  { name: 'jobs-list', title: 'GET /api/jobs/manage', routeFile: 'src/modules/jobs/jobs/jobs.routes.ts', method: 'get', url: '/api/jobs/manage' },
  { name: 'job-creation', title: 'POST /api/jobs/manage', routeFile: 'src/modules/jobs/jobs/jobs.routes.ts', method: 'post', url: '/api/jobs/manage' },
];

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
});
if (!config) throw new Error('tsconfig.json could not be read');
const program = ts.createProgram({
  rootNames: [...new Set(PATHS.map((p) => path.join(root, p.routeFile)))],
  options: { ...config.options, noEmit: true },
});
const checker = program.getTypeChecker();

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

/** The handler of `app.<method>(url, { handler })` in the route file. */
function findHandler(p: HotPath): ts.Node {
  const source = program.getSourceFile(path.join(root, p.routeFile));
  if (!source) throw new Error(`${p.routeFile} not found`);
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === p.method &&
      node.arguments[0] && ts.isStringLiteral(node.arguments[0]) && node.arguments[0].text === p.url
    ) {
      const options = node.arguments[1];
      if (options && ts.isObjectLiteralExpression(options)) {
        for (const prop of options.properties) {
          if (prop.name && ts.isIdentifier(prop.name) && prop.name.text === 'handler') found = prop;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found) throw new Error(`${p.method.toUpperCase()} ${p.url} has no handler in ${p.routeFile}`);
  return found;
}

/** The declarations a referenced name stands for, aliases (imports, re-exports) resolved. */
function declarationsOf(node: ts.Node): ts.Declaration[] {
  let symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return [];
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol.declarations ?? [];
}

/** Declarations that run code: functions, methods, classes and variables with a value. */
function runs(decl: ts.Declaration): boolean {
  return (
    ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isClassDeclaration(decl) ||
    ts.isArrowFunction(decl) || ts.isFunctionExpression(decl) || ts.isGetAccessorDeclaration(decl) ||
    ts.isPropertyDeclaration(decl) || (ts.isVariableDeclaration(decl) && decl.initializer !== undefined)
  );
}

/** The files a path reaches from its handler, in the order first reached. */
function walk(p: HotPath): string[] {
  const files: string[] = [p.routeFile];
  const seen = new Set<ts.Node>();
  const queue: ts.Node[] = [findHandler(p)];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      for (const decl of declarationsOf(node)) {
        const file = rel(decl.getSourceFile().fileName);
        if (!file.startsWith('src/') || !runs(decl)) continue;
        if (!files.includes(file)) files.push(file);
        if (!file.startsWith('src/db/') && !seen.has(decl)) queue.push(decl);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (let node = queue.shift(); node; node = queue.shift()) {
    if (seen.has(node)) continue;
    seen.add(node);
    ts.forEachChild(node, visit);
  }
  return files;
}

/** The first sentence of the file's leading docstring, on one line. */
function roleOf(file: string): string {
  const text = readFileSync(path.join(root, file), 'utf8');
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (!match?.[1]) return '(no docstring)';
  const line = match[1].split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).join(' ').replace(/\s+/g, ' ').trim();
  const end = line.search(/(?<!\b(?:e\.g|i\.e|etc|cf))\.(\s|$)/);
  const sentence = end > 0 ? line.slice(0, end + 1) : line;
  return sentence.length > 200 ? `${sentence.slice(0, 199).trimEnd()}…` : sentence;
}

/** The generated block of one path. */
function listing(p: HotPath): string {
  const files = walk(p);
  const rows = files.map((f, i) => `${i + 1}. \`${f}\`: ${roleOf(f).replace(/\|/g, '\\|')}`);
  return [
    `<!-- paths:${p.name} -->`,
    `${p.title}: ${files.length} files from the route's handler to the SQL (generated by \`node scripts/architecture-paths.ts\`; checked in CI).`,
    '',
    ...rows,
    `<!-- /paths:${p.name} -->`,
  ].join('\n');
}

const current = readFileSync(docPath, 'utf8');
let next = current;
const counts: string[] = [];
for (const p of PATHS) {
  const start = `<!-- paths:${p.name} -->`;
  const end = `<!-- /paths:${p.name} -->`;
  const from = next.indexOf(start);
  const to = next.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`docs/architecture.md has no ${start} ... ${end} block`);
    process.exit(1);
  }
  const block = listing(p);
  counts.push(`${p.name}: ${block.split('\n').filter((l) => /^\d+\. /.test(l)).length} files`);
  next = next.slice(0, from) + block + next.slice(to + end.length);
}

if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/architecture.md: the hot paths\' file listings are out of date; run `node scripts/architecture-paths.ts` and commit the result.');
    process.exit(1);
  }
  console.log(`docs/architecture.md: hot path listings current (${counts.join(', ')})`);
} else {
  if (next !== current) writeFileSync(docPath, next);
  console.log(`docs/architecture.md: ${counts.join(', ')}`);
}
