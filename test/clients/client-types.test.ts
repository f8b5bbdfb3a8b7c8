/**
 * The typed client's types (clients/typescript, docs/api.md "Typed client"): compiles
 * test/clients/client-types.fixture.ts with the repository's compiler options. It must compile
 * clean (a successful call's `data` is the 2xx body without `undefined`, uploads and downloads are
 * typed), and each of its `@ts-expect-error` lines must be an error of its own: with the
 * directives taken out, the compiler reports an error on exactly those lines (an unknown query
 * parameter, body field or option, a missing file, a JSON operation given to `download`).
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURE = path.join(ROOT, 'test/clients/client-types.fixture.ts');

/** Compiles the fixture (its text given) and returns each error as `line: message` (1-based lines). */
function compile(text: string): string[] {
  const { config } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => (path.resolve(file) === FIXTURE ? ts.createSourceFile(file, text, language, true) : read(file, language, ...rest));
  const program = ts.createProgram([FIXTURE], { ...options, noEmit: true }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('typed client types', () => {
  const text = ts.sys.readFile(FIXTURE)!;

  it('compile clean: results without undefined, typed uploads and downloads, every expected error present', () => {
    expect(compile(text)).toEqual([]);
  }, 300_000);

  it('refuse each line marked @ts-expect-error (unknown query parameters included) once the marks are taken out', () => {
    const lines = text.split('\n');
    const marked = lines.flatMap((line, i) => (line.trim().startsWith('// @ts-expect-error') ? [i + 2] : []));
    expect(marked.length).toBeGreaterThanOrEqual(12);
    const unmarked = lines.map((line) => (line.trim().startsWith('// @ts-expect-error') ? '' : line)).join('\n');
    const errors = compile(unmarked);
    const lineOf = (e: string) => Number(/^test\/clients\/client-types\.fixture\.ts:(\d+):/.exec(e)?.[1]);
    expect(errors.every((e) => marked.includes(lineOf(e))), errors.join('\n')).toBe(true);
    expect([...new Set(errors.map(lineOf))].sort((a, b) => a - b)).toEqual(marked);
  }, 300_000);
});
