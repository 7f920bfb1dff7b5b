// Per-rule fixtures whose evidence spans files (the workspace half of fixtures.test.ts): a directory
// test/unit/lint/fixtures/<CODE>/<name>/ is a small workspace of .py files (any depth, '/'-separated paths);
// every file in it is linted with only that rule selected, the workspace given, and <name>.txt beside the
// directory lists the expected findings of all its files as `path:line:col CODE` (empty file: none).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createLinter, RULE_CODES, type ExtendedLinter, type WorkspaceFiles } from '../../../src/lint';
import { grammar } from './helpers';

const DIR = join(__dirname, 'fixtures');

/** The .py files under `dir`, as workspace-relative '/'-separated paths, sorted. */
function pythonFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const full = join(d, entry);
      if (statSync(full).isDirectory()) visit(full);
      else if (entry.endsWith('.py')) out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  visit(dir);
  return out.sort();
}

/** The files of one fixture directory, read once; a file's version never changes. */
function workspaceOf(dir: string, files: readonly string[]): WorkspaceFiles {
  const text = new Map(files.map((f) => [f, readFileSync(join(dir, ...f.split('/')), 'utf8')]));
  const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  return {
    read: (path) => text.get(path),
    version: (path) => (text.has(path) ? 1 : undefined),
    listPython: (d) => files.filter((f) => dirOf(f) === d),
  };
}

describe('lint fixtures (workspaces)', () => {
  for (const code of RULE_CODES) {
    const dir = join(DIR, code);
    const cases = existsSync(dir) ? readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory()) : [];
    if (cases.length === 0) continue;
    describe(code, () => {
      for (const name of cases) {
        it(`${name}/`, async () => {
          const root = join(dir, name);
          const files = pythonFiles(root);
          assert.ok(files.length >= 2, `${code}/${name}/: a workspace fixture needs at least two files`);
          const expectedPath = join(dir, `${name}.txt`);
          assert.ok(existsSync(expectedPath), `missing ${expectedPath}`);
          const expected = readFileSync(expectedPath, 'utf8')
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l.length > 0);
          const errors: unknown[] = [];
          const linter: ExtendedLinter = await createLinter(grammar(), { workspace: workspaceOf(root, files), onInternalError: (e) => errors.push(e) });
          const actual: string[] = [];
          const described: string[] = [];
          for (const path of files) {
            const findings = linter.lintPython(readFileSync(join(root, ...path.split('/')), 'utf8'), { select: [code], path });
            for (const f of findings) {
              actual.push(`${path}:${f.line}:${f.column} ${f.code}`);
              described.push(`${path}:${f.line}:${f.column} ${f.code} ${f.message}`);
              assert.ok(f.message.length > 20, 'the message says what is wrong');
              if (f.fix) assert.equal(f.fix.safety, 'unsafe', 'attention fixes change behaviour');
            }
          }
          assert.deepEqual(errors, [], 'no internal error');
          assert.deepEqual(actual, expected, described.join('\n'));
        });
      }
    });
  }
});
