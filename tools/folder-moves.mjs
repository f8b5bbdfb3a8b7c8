#!/usr/bin/env node
/**
 * The folder moves of docs/architecture.md "The map after the folder moves", for whatever tree it
 * is given. Run once on main when no other branch is in flight; then delete this script and its
 * text file (the moved tree does not need them).
 *
 *   node tools/folder-moves.mjs [--dry-run] [--allow-dirty] [REPO]      (REPO: default the current folder)
 *
 * What it does, in order (nothing is touched until every check has passed):
 *  1. Plans the moves from the tree as it stands (whole folders, never a fixed list of module files):
 *     - entry points and composition roots -> src/main/ (src/cli/ -> src/main/cli/);
 *     - src/config.ts, src/config-catalogue.ts, src/config-error.ts -> src/config/{config,catalogue,error}.ts;
 *     - the domain's words out of src/http -> src/core/ (errors, auth-context, agency-scope,
 *       auth-epoch, rate-limit, rate-limit-rules + its repository);
 *     - every module folder src/modules/<m>/ (a folder with index.ts) -> src/modules/<area>/<m>/ by the
 *       AREAS table below; a module the table does not know stops the run: "unmapped module X";
 *     - the activity log (CORE_MODULES) -> src/core/activity/: every area writes to it;
 *     - every test folder named after a module -> test/<area>/<m>/; test/administration ->
 *       test/people/admin; the cross-cutting test folders (KEEP_TESTS) stay.
 *  2. `git mv`s each tracked file.
 *  3. Rewrites, in every tracked text file (CHANGELOG.md, package-lock.json and this script excepted):
 *     - each string literal that starts with ./ or ../ (import/export specifiers, dynamic
 *       import(), vi.mock(), new URL(..., import.meta.url), path.resolve(import.meta.dirname, ...))
 *       and names a file or folder of the old tree: resolved against the file's OLD place, mapped,
 *       made relative again from its NEW place;
 *     - each path from the repository root (src/..., test/...) that names a file or folder of the
 *       old tree: docs, comments, package.json scripts, test/file-durations.json keys, .ci/run, ...;
 *     - Markdown links relative to the document.
 *  4. Replaces the sections "Layout", "The map after the folder moves" and the drawing of "Layers" in
 *     docs/architecture.md by the text in folder-moves-architecture.md beside this script (when present).
 * Run twice, the second run finds nothing to move and changes nothing; run after a line of AREAS
 * changed, it moves only the modules (and their tests) whose area changed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// ---- The tables (add a line here for a new module) -------------------------------------------

/** module folder name -> area. */
const AREAS = {
  // Bottom up: an area imports only the areas listed before it (docs/architecture.md "Layout").
  // messaging: everything that tells someone something
  messaging: 'messaging', mail: 'messaging', push: 'messaging', notices: 'messaging', webhooks: 'messaging', sms: 'messaging',
  // people: accounts, the organisation (branches, roles) and the parties of a job
  users: 'people', auth: 'people', admin: 'people', tenants: 'people', contractors: 'people', addresses: 'people',
  // jobs: the job and everything that runs on it
  jobs: 'jobs', 'job-access': 'jobs', 'job-files': 'jobs', 'job-notes': 'jobs', agents: 'jobs', calendar: 'jobs', 'time-ranges': 'jobs',
  weather: 'jobs', compliance: 'jobs', hazards: 'jobs', sla: 'jobs', 'sla-rules': 'jobs', 'sla-reports': 'jobs', 'workflow-engine': 'jobs',
  reporting: 'jobs', 'planned-maintenance': 'jobs', visits: 'jobs',
  conversations: 'jobs', live: 'jobs', // a job's conversation and its live event stream read the job
  // money: prices, quotes, invoices, and the landlords who approve and are recharged
  money: 'money', recharges: 'money', landlords: 'money', 'works-orders': 'money',
  // insight: reading the data back
  dashboard: 'insight', analytics: 'insight', reports: 'insight', search: 'insight',
  // platform: running the service for many agencies
  agencies: 'platform', appearance: 'platform', backfills: 'platform', backups: 'platform', devices: 'platform',
  gdpr: 'platform', imports: 'platform', security: 'platform', storage: 'platform', system: 'platform', platform: 'platform',
};

/** Modules every area writes to, moved below the modules into src/core/<module>/ (the activity log). */
const CORE_MODULES = ['activity'];

/** Test folders that are not one module's tests: they stay where they are. */
const KEEP_TESTS = new Set([
  'helpers', 'fixtures', 'http', 'db', 'hardening', 'security', 'storage', 'insight', 'platform', 'production', 'load', 'soak',
  'fuzz', 'unit', 'browser', 'cli', 'clients', 'console', 'demo',
]);
/** Test folders named otherwise than their module. */
const TEST_RENAMES = { administration: 'people/admin' };

/** Entry points and composition roots -> src/main/. */
const MAIN_FILES = ['cli.ts', 'server.ts', 'worker-process.ts', 'cluster.ts', 'startup.ts', 'runtime.ts', 'background.ts', 'app.ts', 'telemetry.ts'];
const CONFIG_FILES = { 'src/config.ts': 'src/config/config.ts', 'src/config-catalogue.ts': 'src/config/catalogue.ts', 'src/config-error.ts': 'src/config/error.ts' };
const CORE_FILES = ['errors.ts', 'auth-context.ts', 'agency-scope.ts', 'auth-epoch.ts', 'rate-limit.ts', 'rate-limit-rules.ts', 'rate-limit-rules.repository.ts'];

/** Files whose paths are history, not references. */
const NO_REWRITE = new Set(['CHANGELOG.md', 'package-lock.json', 'tools/folder-moves.mjs', 'tools/folder-moves-architecture.md']);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

// ---- Arguments --------------------------------------------------------------------------------

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const allowDirty = args.includes('--allow-dirty');
const repo = path.resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const git = (...a) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const fail = (message) => {
  console.error(`moves: ${message}`);
  process.exit(1);
};

if (!existsSync(path.join(repo, '.git')) && !existsSync(path.join(repo, 'HEAD'))) fail(`${repo} is not a git work tree`);
if (!allowDirty && git('status', '--porcelain', '--untracked-files=no').trim() !== '') fail('the work tree has uncommitted changes (commit them, or pass --allow-dirty)');

// ---- 1. Plan ----------------------------------------------------------------------------------

const files = git('ls-files', '-z').split('\0').filter((f) => f && existsSync(path.join(repo, f)));
const oldFiles = new Set(files);
const oldDirs = new Set(['']);
for (const f of files) for (let d = path.posix.dirname(f); d !== '.' && !oldDirs.has(d); d = path.posix.dirname(d)) oldDirs.add(d);

/** old path -> new path, files only. */
const moves = new Map();
/** old folder -> new folder, for folders that move whole (paths in text that name a folder). */
const dirMoves = new Map();
const unmapped = [];
const notes = [];

for (const f of MAIN_FILES) if (oldFiles.has(`src/${f}`)) moves.set(`src/${f}`, `src/main/${f}`);
for (const [from, to] of Object.entries(CONFIG_FILES)) if (oldFiles.has(from)) moves.set(from, to);
for (const f of CORE_FILES) if (oldFiles.has(`src/http/${f}`)) moves.set(`src/http/${f}`, `src/core/${f}`);
const moveFolder = (from, to, skip = () => false) => {
  let n = 0;
  for (const f of files) {
    if (!f.startsWith(`${from}/`) || skip(f.slice(from.length + 1))) continue;
    moves.set(f, `${to}/${f.slice(from.length + 1)}`);
    n++;
  }
  if (n > 0) dirMoves.set(from, to);
  return n;
};
moveFolder('src/cli', 'src/main/cli');

const AREA_NAMES = new Set(Object.values(AREAS));
const subdirsOf = (dir) => [...oldDirs].filter((d) => d.startsWith(`${dir}/`) && !d.slice(dir.length + 1).includes('/')).map((d) => d.slice(dir.length + 1));
const isModuleDir = (dir) => oldFiles.has(`${dir}/index.ts`);
/** Where a module's folder belongs, or undefined when the tables do not know it. */
const homeOf = (name) => (CORE_MODULES.includes(name) ? `src/core/${name}` : AREAS[name] ? `src/modules/${AREAS[name]}/${name}` : undefined);

const moduleDirs = [...oldDirs].filter((d) => /^src\/modules\/[^/]+$/.test(d)).map((d) => d.split('/')[2]);
for (const name of moduleDirs) {
  const dir = `src/modules/${name}`;
  if (AREA_NAMES.has(name)) {
    // An area folder: its modules' folders go where the tables say (a module can change area
    // between runs), and whatever lies outside them is the module named after the area (jobs,
    // money, messaging, platform), as on the first run or when a branch merged later adds files
    // in the old layout.
    const inner = subdirsOf(dir).filter((sub) => isModuleDir(`${dir}/${sub}`));
    for (const sub of inner) {
      const home = homeOf(sub);
      if (!home) unmapped.push(sub);
      else if (home !== `${dir}/${sub}`) moveFolder(`${dir}/${sub}`, home);
    }
    const insideModule = (rest) => inner.includes(rest.split('/')[0]) && rest.includes('/');
    const loose = files.filter((f) => f.startsWith(`${dir}/`) && !insideModule(f.slice(dir.length + 1)));
    if (loose.length === 0) continue;
    if (AREAS[name] === name) moveFolder(dir, `${dir}/${name}`, insideModule);
    else unmapped.push(`${name} (${loose.length} file(s) in the area folder outside its modules, e.g. ${loose[0]})`);
    continue;
  }
  const home = homeOf(name);
  if (!isModuleDir(dir)) unmapped.push(`${name} (src/modules/${name} has no index.ts)`);
  else if (!home) unmapped.push(name);
  else moveFolder(dir, home);
}

const testHome = (name) => (TEST_RENAMES[name] ? `test/${TEST_RENAMES[name]}` : AREAS[name] ? `test/${AREAS[name]}/${name}` : undefined);
const testDirs = [...oldDirs].filter((d) => /^test\/[^/]+$/.test(d)).map((d) => d.split('/')[1]);
for (const name of testDirs) {
  const dir = `test/${name}`;
  if (AREA_NAMES.has(name)) {
    // An area's test folder: module folders inside go where the tables say; loose files stay in
    // a kept folder (platform, insight) or go to the module named after the area.
    const inner = subdirsOf(dir).filter((sub) => AREAS[sub] || Object.values(TEST_RENAMES).includes(`${name}/${sub}`));
    for (const sub of inner) {
      const renamed = Object.entries(TEST_RENAMES).find(([, to]) => to.endsWith(`/${sub}`));
      const home = renamed ? `test/${renamed[1]}` : `test/${AREAS[sub]}/${sub}`;
      if (home !== `${dir}/${sub}`) moveFolder(`${dir}/${sub}`, home);
    }
    if (KEEP_TESTS.has(name) || AREAS[name] !== name) continue;
    const insideModule = (rest) => inner.includes(rest.split('/')[0]) && rest.includes('/');
    moveFolder(dir, `${dir}/${name}`, insideModule);
    continue;
  }
  if (KEEP_TESTS.has(name)) continue;
  const home = testHome(name);
  if (home) moveFolder(dir, home);
  else notes.push(`test/${name}/ stays (no module of that name; add it to KEEP_TESTS, TEST_RENAMES or AREAS)`);
}

if (unmapped.length > 0) {
  fail(`${unmapped.map((m) => `unmapped module ${m}`).join('; ')}\n  add a line "  '<module>': '<area>'," to AREAS in ${path.resolve(process.argv[1])} (areas: ${[...new Set(Object.values(AREAS))].join(', ')})`);
}

// Collisions: two files to one place, or onto a file that stays.
const targets = new Map();
for (const [from, to] of moves) {
  if (targets.has(to)) fail(`two files would move to ${to}: ${targets.get(to)} and ${from}`);
  if (oldFiles.has(to) && !moves.has(to)) fail(`${from} would move onto ${to}, which stays`);
  targets.set(to, from);
}

/** New place of an old path (file or folder), or the path itself. */
function mapPath(p) {
  if (moves.has(p)) return moves.get(p);
  if (dirMoves.has(p)) return dirMoves.get(p);
  // The longest moved folder that holds it.
  for (let d = path.posix.dirname(p); d !== '.' && d !== ''; d = path.posix.dirname(d)) {
    if (dirMoves.has(d)) return `${dirMoves.get(d)}/${p.slice(d.length + 1)}`;
  }
  return p;
}
const existedBefore = (p) => p === '' || oldFiles.has(p) || oldDirs.has(p);

if (moves.size === 0) {
  console.log('moves: nothing to move (the tree already has the new layout)');
  for (const n of notes) console.log(`  note: ${n}`);
  process.exit(0);
}

// ---- 3. Rewrite (computed before anything moves) ----------------------------------------------

const warnings = [];
let rewrites = 0;

/** A relative string in file `file` (old path) naming `spec`: the new string, or null to leave it. */
function relocate(file, spec) {
  const newFile = mapPath(file);
  const trailing = spec.endsWith('/') && spec.length > 1 ? '/' : '';
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\/$/, '');
  const oldTarget = target === '.' ? '' : target;
  if (oldTarget.startsWith('..')) return null; // outside the repository: not ours
  if (!existedBefore(oldTarget)) return null;
  const newTarget = mapPath(oldTarget);
  let rel = path.posix.relative(path.posix.dirname(newFile), newTarget) || '.';
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (spec === '..' || spec === '.') return rel;
  return rel + trailing;
}

const ROOT_PATH = /(?<![\w@./-])((?:src|test)\/[A-Za-z0-9_@./-]*)/g;
function rewriteRootPaths(text) {
  return text.replace(ROOT_PATH, (whole, token) => {
    // Sentence punctuation after a path is not part of it.
    const m = /^(.*?)([.,:;)]*)$/.exec(token);
    let core = m[1];
    const tail = m[2];
    const slash = core.endsWith('/') ? '/' : '';
    core = core.replace(/\/$/, '');
    if (!existedBefore(core)) return whole;
    const mapped = mapPath(core);
    return mapped === core ? whole : `${mapped}${slash}${tail}`;
  });
}

const SPEC = /(['"`])(\.\.?\/[^'"`\n$]*|\.\.)\1/g;
function rewriteCode(file, text) {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.includes('./') && !line.includes("'..'") && !line.includes('".."')) continue;
    lines[i] = line.replace(SPEC, (whole, quote, spec) => {
      if (spec === '..' && !/import\.meta|__dirname/.test(line)) return whole;
      const next = relocate(file, spec);
      if (next === null) {
        if (/\b(from|import|mock)\b/.test(line) && !spec.includes('*')) warnings.push(`${file}:${i + 1} ${spec} names no file of the tree; left as it is`);
        return whole;
      }
      return `${quote}${next}${quote}`;
    });
  }
  return lines.join('\n');
}

const MD_LINK = /\]\((\.{0,2}\/?[^)\s#]+)(#[^)\s]*)?\)/g;
function rewriteMarkdown(file, text) {
  return text.replace(MD_LINK, (whole, link, hash = '') => {
    if (/^[a-z]+:/i.test(link) || link.startsWith('/')) return whole;
    const spec = link.startsWith('.') ? link : `./${link}`;
    const next = relocate(file, spec);
    if (next === null) return whole;
    const out = link.startsWith('.') ? next : next.replace(/^\.\//, '');
    return `](${out}${hash})`;
  });
}

const newContents = new Map(); // old path -> new text
for (const file of files) {
  if (NO_REWRITE.has(file) || file.startsWith('node_modules/')) continue;
  const buf = readFileSync(path.join(repo, file));
  if (buf.includes(0) || buf.length > 20 * 1024 * 1024) continue;
  const text = buf.toString('utf8');
  let next = text;
  if (CODE.test(file)) next = rewriteCode(file, next);
  if (file.endsWith('.md')) next = rewriteMarkdown(file, next);
  next = rewriteRootPaths(next);
  if (next !== text) newContents.set(file, next);
}

// docs/architecture.md: the layout sections, from folder-moves-architecture.md beside this script.
const sectionsFile = path.join(path.dirname(path.resolve(process.argv[1])), 'folder-moves-architecture.md');
const archFile = 'docs/architecture.md';
if (existsSync(sectionsFile) && oldFiles.has(archFile)) {
  const arch = newContents.get(archFile) ?? readFileSync(path.join(repo, archFile), 'utf8');
  // From "## Layout" to the first paragraph after the drawing of "## Layers".
  const start = arch.indexOf('\n## Layout\n');
  const end = arch.indexOf('\n**SQL lives in repositories**');
  if (start < 0 || end < 0 || end < start) warnings.push(`${archFile}: "## Layout" .. "**SQL lives in repositories**" not found; the layout text was not replaced`);
  else newContents.set(archFile, `${arch.slice(0, start + 1)}${readFileSync(sectionsFile, 'utf8').trim()}\n${arch.slice(end)}`);
}

// ---- Report, then act -------------------------------------------------------------------------

const byTop = new Map();
for (const [from, to] of moves) {
  const key = `${path.posix.dirname(from)}/ -> ${path.posix.dirname(to)}/`;
  byTop.set(key, (byTop.get(key) ?? 0) + 1);
}
console.log(`moves: ${moves.size} files from ${byTop.size} folders; ${newContents.size} files rewritten${dryRun ? ' (dry run: nothing changed)' : ''}`);
for (const [k, n] of [...byTop].sort()) console.log(`  ${k}  (${n})`);
for (const n of notes) console.log(`  note: ${n}`);
for (const w of warnings) console.log(`  warning: ${w}`);
if (dryRun) process.exit(0);

// ---- 2. Move, then write ----------------------------------------------------------------------

const sorted = [...moves].sort(([a], [b]) => a.localeCompare(b));
// A folder moving into a folder of its own name (test/jobs -> test/jobs/jobs) moves file by file,
// so no staging name is needed.
for (const [from, to] of sorted) {
  mkdirSync(path.join(repo, path.dirname(to)), { recursive: true });
  git('mv', '--', from, to);
}
for (const [oldPath, text] of newContents) {
  const target = mapPath(oldPath);
  writeFileSync(path.join(repo, target), text);
  rewrites++;
}
git('add', '-A', '--', ...new Set([...moves.values(), ...[...newContents.keys()].map(mapPath)]));
// Folders the moves emptied (untracked files keep theirs).
const emptied = [...new Set([...moves.keys()].map((f) => path.posix.dirname(f)))].sort((a, b) => b.length - a.length);
for (const dir of emptied) {
  for (let d = dir; d !== '.' && d !== ''; d = path.posix.dirname(d)) {
    try {
      rmdirSync(path.join(repo, d));
    } catch {
      break;
    }
  }
}
console.log(`moves: done; ${moves.size} files moved, ${rewrites} rewritten. Next: npm run typecheck && npm run lint && npm run openapi:check, then commit.`);
