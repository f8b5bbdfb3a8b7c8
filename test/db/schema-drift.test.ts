/**
 * Drift check between the migrations and the hand-written table interfaces (docs/architecture.md,
 * data rules): the migrated database's information_schema must list exactly the tables and columns
 * of `Database` in src/db/schema.ts, with the same nullability and a matching kind of type.
 * A migration without its schema.ts change (or the reverse) fails here, naming the column.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/db/schema.ts');
/** Kysely's own bookkeeping tables, not part of `Database`. */
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnShape {
  nullable: boolean;
  kind: string;
}

/** The select type of one column type: ColumnType<S, I, U> and Generated<T> carry S in __select__. */
function selectType(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): ts.Type {
  const select = type.getProperty('__select__');
  return select ? checker.getTypeOfSymbolAtLocation(select, at) : type;
}

/** The members of a column's select type (a union is split, each member resolved). */
function selectMembers(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): ts.Type[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.flatMap((p) => {
    const s = selectType(checker, p, at);
    return s === p ? [p] : selectMembers(checker, s, at);
  });
}

const BINARY_TYPES = ['Buffer', 'Uint8Array', 'Buffer<ArrayBufferLike>'];

/**
 * The kind of a list of select-type members: number, string, boolean, date, json (unknown),
 * json-shaped (a declared object or array type) or the type's name.
 */
function kindOf(checker: ts.TypeChecker, members: ts.Type[]): string {
  const kinds = new Set<string>();
  for (const p of members) {
    if (p.flags & ts.TypeFlags.Null) continue;
    if (p.flags & ts.TypeFlags.Unknown) kinds.add('json');
    else if (p.flags & ts.TypeFlags.NumberLike) kinds.add('number');
    else if (p.flags & ts.TypeFlags.StringLike) kinds.add('string');
    else if (p.flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
    else if (checker.typeToString(p) === 'Date') kinds.add('date');
    // A typed JSON value (an object, a record or an array type): a json/jsonb column whose shape
    // the module declares. Binary types keep their names.
    else if (p.flags & ts.TypeFlags.Object && !BINARY_TYPES.includes(checker.typeToString(p))) kinds.add('json-shaped');
    else kinds.add(checker.typeToString(p));
  }
  return [...kinds].sort().join('|');
}

/** Tables and columns of `Database` in src/db/schema.ts, read with the TypeScript compiler. */
function declaredSchema(): Map<string, Map<string, ColumnShape>> {
  const program = ts.createProgram([SCHEMA_FILE], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database')!;
  const tables = new Map<string, Map<string, ColumnShape>>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns = new Map<string, ColumnShape>();
    const tableType = checker.getTypeOfSymbolAtLocation(table, database);
    for (const column of tableType.getProperties()) {
      const members = selectMembers(checker, checker.getTypeOfSymbolAtLocation(column, database), database);
      const nullable = members.some((p) => (p.flags & ts.TypeFlags.Null) !== 0);
      columns.set(column.name, { nullable, kind: kindOf(checker, members) });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** The TypeScript kinds a PostgreSQL type may be declared as. */
function allowedKinds(udt: string): string[] {
  if (['int2', 'int4', 'float4', 'float8'].includes(udt)) return ['number'];
  if (['int8', 'numeric'].includes(udt)) return ['number', 'string'];
  if (['text', 'varchar', 'bpchar', 'uuid', 'citext', 'inet', 'tsvector'].includes(udt)) return ['string'];
  if (udt === 'date') return ['string', 'date', 'date|string'];
  if (udt === 'bool') return ['boolean'];
  if (['timestamptz', 'timestamp'].includes(udt)) return ['date', 'date|string'];
  if (['json', 'jsonb'].includes(udt)) return ['json', 'json-shaped'];
  if (udt === 'bytea') return BINARY_TYPES;
  // An array column (udt_name `_text`, `_int4`, ...) is declared as a TypeScript array.
  if (udt.startsWith('_')) return ['json-shaped'];
  return [udt];
}

describe('db/schema.ts matches the migrated database', () => {
  let t: TestApp;
  let actual: Map<string, Map<string, { nullable: boolean; udt: string }>>;
  let declared: Map<string, Map<string, ColumnShape>>;
  let viewNames: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const rows = await sql<{ table_name: string; column_name: string; is_nullable: string; udt_name: string }>`
      select c.table_name, c.column_name, c.is_nullable, c.udt_name
      from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
      where c.table_schema = 'public' and tb.table_type = 'BASE TABLE'
        -- A partition of a partitioned table (activity_log_p2026_12, ..._default) has its parent's
        -- columns; the parent is the table declared (docs/operations.md "History partitions and retention").
        and not exists (select 1 from pg_class pc join pg_namespace n on n.oid = pc.relnamespace
                         where n.nspname = 'public' and pc.relname = c.table_name and pc.relispartition)
      order by c.table_name, c.ordinal_position`.execute(t.db);
    actual = new Map();
    for (const r of rows.rows) {
      if (KYSELY_TABLES.has(r.table_name)) continue;
      if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
      actual.get(r.table_name)!.set(r.column_name, { nullable: r.is_nullable === 'YES', udt: r.udt_name });
    }
    declared = declaredSchema();
    // Views (conversation_entries, docs/conversations.md) are declared for reading; their columns
    // report every one nullable, so they are checked by name only, not as tables.
    const views = await sql<{ table_name: string }>`select table_name from information_schema.views where table_schema = 'public'`.execute(t.db);
    viewNames = views.rows.map((v) => v.table_name);
    for (const v of viewNames) declared.delete(v);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('declares the views the migrations create', () => {
    expect(viewNames).toContain('conversation_entries');
  });

  it('declares exactly the tables the migrations create', () => {
    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());
  });

  it('declares exactly the columns of every table', () => {
    const problems: string[] = [];
    for (const [table, columns] of actual) {
      const mine = declared.get(table);
      if (!mine) continue;
      for (const c of columns.keys()) if (!mine.has(c)) problems.push(`${table}.${c} is in the database but not in schema.ts`);
      for (const c of mine.keys()) if (!columns.has(c)) problems.push(`${table}.${c} is in schema.ts but not in the database`);
    }
    expect(problems).toEqual([]);
  });

  it('declares each column nullable exactly when the database allows null, with a matching type', () => {
    const problems: string[] = [];
    for (const [table, columns] of actual) {
      const mine = declared.get(table);
      if (!mine) continue;
      for (const [c, col] of columns) {
        const d = mine.get(c);
        if (!d) continue;
        if (d.nullable !== col.nullable) problems.push(`${table}.${c}: database ${col.nullable ? 'nullable' : 'not null'}, schema.ts ${d.nullable ? 'nullable' : 'not null'}`);
        if (!allowedKinds(col.udt).includes(d.kind)) problems.push(`${table}.${c}: database ${col.udt}, schema.ts ${d.kind}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
