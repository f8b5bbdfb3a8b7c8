/**
 * Writes `.env.example` from the configuration catalogue (src/config/catalogue.ts): every
 * variable with its default and meaning, grouped. Before writing it proves the catalogue against
 * the configuration module (src/config/config.ts):
 *   - every variable loadConfig reads (observed through a recording environment) is listed;
 *   - every listed variable is read (unless marked conditional or external);
 *   - setting a listed default gives the same configuration as leaving it unset.
 * `--check` (CI, `npm run env:check`) fails when `.env.example` differs from what it would write.
 */
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_GROUPS, CONFIG_VARIABLES } from '../src/config/catalogue.ts';
import { loadConfig } from '../src/config/config.ts';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, '.env.example');
const problems: string[] = [];

// 1. Which variables does loadConfig read on an empty environment?
const read = new Set<string>();
loadConfig(
  new Proxy({} as Record<string, string | undefined>, {
    get: (_t, key) => {
      if (typeof key === 'string') read.add(key);
      return undefined;
    },
  }),
);
const listed = new Set(CONFIG_VARIABLES.map((x) => x.name));
for (const name of read) if (!listed.has(name)) problems.push(`${name} is read by src/config/config.ts but missing from src/config/catalogue.ts`);
for (const x of CONFIG_VARIABLES) {
  if (!read.has(x.name) && !x.conditional && !x.external) problems.push(`${x.name} is listed but src/config/config.ts never reads it`);
}

// 2. Each listed default behaves like leaving the variable unset.
const base = loadConfig({});
for (const x of CONFIG_VARIABLES) {
  if (x.default === undefined || x.external || x.conditional) continue;
  let same = false;
  try {
    same = isDeepStrictEqual(loadConfig({ [x.name]: x.default }), base);
  } catch (err) {
    problems.push(`${x.name}=${x.default} (its listed default) is refused: ${(err as Error).message}`);
    continue;
  }
  if (!same) problems.push(`${x.name}=${x.default} (its listed default) changes the configuration: the catalogue's default is wrong`);
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}

// 3. The file.
const lines = [
  '# Caretaker configuration: every environment variable, its default and meaning.',
  '# Generated from src/config/catalogue.ts by `npm run env:example`; do not edit by hand.',
  '# Copy to .env and uncomment what you change (node --env-file=.env bin/caretaker.js serve);',
  '# `caretaker config check` validates the result and reaches the services it names.',
];
for (const group of CONFIG_GROUPS) {
  lines.push('', `## ${group.title}`);
  for (const x of group.variables) {
    lines.push(`# ${x.meaning}${x.secret ? ' (secret)' : ''}`);
    lines.push(`# ${x.name}=${x.default ?? ''}`);
  }
}
const text = `${lines.join('\n')}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: reported below
  }
  if (current !== text) {
    process.stderr.write('.env.example is out of date: run `npm run env:example` and commit the result.\n');
    process.exit(1);
  }
  process.stdout.write(`.env.example is current (${CONFIG_VARIABLES.length} variables).\n`);
} else {
  writeFileSync(target, text);
  process.stdout.write(`Wrote .env.example (${CONFIG_VARIABLES.length} variables).\n`);
}
