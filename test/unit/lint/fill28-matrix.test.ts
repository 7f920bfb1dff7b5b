// A generated matrix of fill-value (ATT007) and mask-after-softmax (ATT006) forms (fill28-matrix.cells.ts): for each
// composed program, the correct variant is silent (no finding of any rule) and the buggy variant gets exactly one
// finding, of the right rule, on the right line. `TODAY` records the cells today's linter decides wrongly (the
// findings it reports, as `RULE@line text`; [] = silent), so that a fix removes the entries of the cells it changes
// and a regression shows as a cell leaving the matrix's expectation.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';
import { matrixCells, type MatrixCell } from './fill28-matrix.cells';

const TODAY: Readonly<Record<string, readonly string[]>> = {};

function decided(l: ExtendedLinter, cell: MatrixCell): string[] {
  const src = cell.files[cell.path] ?? '';
  const lines = src.split('\n');
  return l.lintPython(src, { path: cell.path }).map((f) => `${f.code}@${lines[f.line - 1]?.trim()}`);
}

function expected(cell: MatrixCell): string[] {
  if (!cell.bugAt) return [];
  const line = (cell.files[cell.path] ?? '').split('\n').find((l) => l.includes(cell.bugAt!));
  assert.ok(line, `${cell.id}: the program holds ${JSON.stringify(cell.bugAt)}`);
  return [`${cell.rule}@${line.trim()}`];
}

describe('fill28 matrix: fill values and masks after softmax, composed from their dimensions', function () {
  this.timeout(120_000);
  const cells = matrixCells();
  let single: ExtendedLinter;
  before(async () => {
    single = await createLinter(grammar(), { onInternalError: (e) => assert.fail(String(e)) });
  });

  it('gives a reason for every expected silence of a buggy-looking program, and expects none of a buggy one', () => {
    for (const c of cells) if (c.silentBecause) assert.ok(!c.bugAt && c.silentBecause.length > 20, c.id);
  });

  it('has distinct cell ids, a few hundred of them, and every TODAY entry names a cell', () => {
    const ids = new Set(cells.map((c) => c.id));
    assert.equal(ids.size, cells.length);
    assert.ok(cells.length >= 300 && cells.length <= 1500, `${cells.length} cells`);
    for (const id of Object.keys(TODAY)) assert.ok(ids.has(id), `TODAY names ${id}, not a cell`);
  });

  const groups = new Map<string, MatrixCell[]>();
  for (const c of cells) {
    const g = c.id.split('/').slice(0, 2).join('/');
    groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  for (const [group, members] of groups) {
    it(`${group} (${members.length} programs)`, async () => {
      const wrong: string[] = [];
      for (const cell of members) {
        const l =
          Object.keys(cell.files).length > 1
            ? await createLinter(grammar(), { workspace: memoryWorkspace(cell.files), onInternalError: (e) => assert.fail(String(e)) })
            : single;
        const got = decided(l, cell);
        const want = TODAY[cell.id] ?? expected(cell);
        if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${cell.id}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
      assert.deepEqual(wrong, []);
    });
  }
});
