// ATT002 over the matrix of how code builds, carries and consumes masks (mask-matrix.cells.ts): in every cell the
// builder form whose meaning the consumer documents gives no finding, and the opposite form gives one, unless the
// cell is listed below as one the linter cannot yet decide (silent on both forms: no evidence reaches the use).
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter, type Finding } from '../../../src/lint';
import { cells, program, workspaceProgram, type Cell, type Meaning } from './mask-matrix.cells';
import { grammar, linter } from './helpers';

/**
 * Carriers whose mask does not reach the consumer yet: an inverted mask through them is not reported. (Empty since
 * dict literals, `dict(...)` and helpers returning them carry their values by key; before, both dict carriers. The
 * builders and consumers once silent everywhere, ones/zeros filled at a mask, zeros filled with -inf for SDPA, a
 * transformers model built from a config and Keras 3's value_mask, decide since the fixes that came with them.)
 */
const SILENT_CARRIERS: ReadonlySet<string> = new Set<string>();

const silentToday = (c: Cell): boolean => SILENT_CARRIERS.has(c.carrier.name);

const opposite = (m: Meaning): Meaning => (m === 'keep' ? 'ignore' : 'keep');

const att002 = (fs: readonly Finding[]): string[] =>
  fs.filter((f) => f.code === 'ATT002' || f.code === 'ATT000').map((f) => `${f.code} ${f.line}:${f.column} ${f.message}`);

/** One workspace linter over whichever files the current cell wrote (a new version for every program). */
let files: Record<string, string> = {};
let version = 0;
let workspaceLinter: Promise<ExtendedLinter> | undefined;

/** The cell's program in the given meaning, linted: one file, or each file of its workspace. */
async function findings(cell: Cell, meaning: Meaning): Promise<{ found: string[]; text: string }> {
  if (!cell.carrier.crossFile) {
    const src = program(cell.builder, meaning, cell.carrier, cell.consumer);
    return { found: att002((await linter()).lintPython(src)), text: src };
  }
  workspaceLinter ??= createLinter(grammar(), {
    workspace: {
      read: (p) => files[p],
      version: (p) => (p in files ? version : undefined),
      listPython: (d) => (d === '' ? Object.keys(files) : []),
      listDirs: () => [],
    },
  });
  const l = await workspaceLinter;
  files = workspaceProgram(cell.builder, meaning, cell.carrier, cell.consumer);
  version++;
  const found = Object.keys(files).flatMap((p) => att002(l.lintPython(files[p] ?? '', { path: p })));
  return {
    found,
    text: Object.entries(files)
      .map(([p, t]) => `# ${p}\n${t}`)
      .join('\n'),
  };
}

describe('ATT002 mask matrix: builder × carrier × consumer', () => {
  const all = cells();

  it('covers every builder, carrier and consumer of the matrix', () => {
    assert.ok(all.length > 1000, `${all.length} cells`);
    assert.ok(all.some((c) => !silentToday(c)));
  });

  for (const cell of all) {
    it(cell.id, async () => {
      const correct = await findings(cell, cell.consumer.expects);
      assert.deepEqual(correct.found, [], `correct form reported:\n${correct.text}`);
      const inverted = await findings(cell, opposite(cell.consumer.expects));
      if (silentToday(cell)) assert.deepEqual(inverted.found, [], `listed as silent, now reported (update SILENT_CARRIERS):\n${inverted.text}`);
      else assert.equal(inverted.found.length, 1, `inverted form: ${inverted.found.length} findings\n${inverted.found.join('\n')}\n${inverted.text}`);
    });
  }
});
