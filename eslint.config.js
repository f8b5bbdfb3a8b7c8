// ESLint flat config (docs/architecture.md, "Module rule" and "Lint").
// - typescript-eslint's recommended rules, plus the type-checked rules that catch real bugs here
//   (promises left floating or passed where a callback's result is ignored, awaiting non-promises);
// - the module rule (local plugin `caretaker/module-boundaries`, below);
// - no import cycles in src (eslint-plugin-import `no-cycle`; import-x needs native resolver bindings
//   that this machine's registry does not all carry, so `npm ci` could not install it);
// - the console's hooks (eslint-plugin-react-hooks): hooks only at a component's top level, in the
//   same order every render (rules-of-hooks), and an effect's or callback's dependencies complete
//   (exhaustive-deps), both errors.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const MODULES = path.join(ROOT, 'src', 'modules');
// Layers below the modules: they import no module (docs/architecture.md, "Layers").
const NO_FEATURE_LAYERS = ['http', 'db', 'lib', 'events', 'permissions', 'storage', 'core', 'config'].map((d) => path.join(ROOT, 'src', d));
const doorCache = new Map();

/** True when the folder holds an index.ts (a module's door). */
function hasDoor(dir) {
  if (!doorCache.has(dir)) doorCache.set(dir, existsSync(path.join(dir, 'index.ts')));
  return doorCache.get(dir);
}

/**
 * The folder of the feature module a file belongs to, or undefined: the outermost folder under
 * src/modules, on the file's way up, that holds an index.ts (src/modules/<area>/<module>/; an
 * area folder holds none).
 */
function moduleOf(file) {
  const rel = path.relative(MODULES, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep).slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(MODULES, ...parts.slice(0, i));
    if (hasDoor(dir)) return dir;
  }
  return undefined;
}

/**
 * The module rule: a file outside a module's folder imports that module only through its
 * index.ts, and the layers below the modules (src/http, src/db, src/lib, src/events,
 * src/permissions, src/storage, src/core, src/config) import no feature module at all.
 */
const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Modules import each other only through index.ts; cross-cutting layers import no module' },
    schema: [],
    messages: {
      deep: "Import '{{source}}' through its module's public door {{module}}/index.ts (docs/architecture.md, module rule).",
      layer: "{{layer}} must not depend on the feature module '{{module}}'; inject what it needs through AppDeps (docs/architecture.md).",
    },
  },
  create(context) {
    const file = context.filename;
    const own = moduleOf(file);
    const layer = NO_FEATURE_LAYERS.find((dir) => file.startsWith(dir + path.sep));
    function check(node) {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      const module = moduleOf(target);
      if (module === undefined || module === own) return;
      const name = path.relative(ROOT, module);
      if (layer) {
        context.report({ node: node.source, messageId: 'layer', data: { layer: path.relative(ROOT, layer), module: name } });
        return;
      }
      if (target !== path.join(module, 'index.ts')) {
        context.report({ node: node.source, messageId: 'deep', data: { source, module: name } });
      }
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const QUERY_STARTS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'query']);
const DB_DIR = path.join(ROOT, 'src', 'db') + path.sep;

/**
 * SQL lives in repositories (docs/architecture.md, "Layers"): query building (`selectFrom`,
 * `insertInto`, `updateTable`, `deleteFrom`, an sql`...` template, a driver's `.query(`) only in
 * `*.repository.ts` files and under src/db/. No file is exempt.
 */
const sqlInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'Query building only in *.repository.ts files and src/db/' },
    schema: [],
    messages: { sql: "{{what}} outside a repository: move the SQL into a *.repository.ts file (or src/db/) and call it (docs/architecture.md, \"Layers\")." },
  },
  create(context) {
    const file = context.filename;
    if (file.endsWith('.repository.ts') || file.startsWith(DB_DIR)) return {};
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && QUERY_STARTS.has(callee.property.name)) {
          context.report({ node: callee.property, messageId: 'sql', data: { what: `.${callee.property.name}(` } });
        }
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type === 'Identifier' && node.tag.name === 'sql') context.report({ node: node.tag, messageId: 'sql', data: { what: 'sql`...`' } });
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'scratch/', 'bench/results/', '.ci/out/', 'console/dist/', 'clients/typescript/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
    },
    plugins: { caretaker: { rules: { 'module-boundaries': moduleBoundaries, 'sql-in-repositories': sqlInRepositories } }, import: importPlugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Kysely's dynamic expression builders are typed `any` in a few callbacks on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    settings: {
      'import/extensions': ['.ts', '.js'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'caretaker/module-boundaries': 'error',
      // No file is exempt: the demo seed's SQL is in src/db/seed.repository.ts.
      'caretaker/sql-in-repositories': 'error',
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The console (browser code, its own tsconfig): TypeScript checks names, so no-undef is off.
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'no-undef': 'off', 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
