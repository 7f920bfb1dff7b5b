// ATT002 over the matrix of how code builds, carries and consumes masks (mask-matrix.cells.ts): in every cell the
// builder form whose meaning the consumer documents gives no finding, and the opposite form gives one, unless the
// cell is listed below as one the linter cannot yet decide (silent on both forms: no evidence reaches the use).
import { strict as assert } from 'node:assert';
import { cells, program, type Cell, type Meaning } from './mask-matrix.cells';
import { linter } from './helpers';

/**
 * Carriers whose mask does not reach the consumer yet: an inverted mask through them is not reported. (Empty since
 * dict literals, `dict(...)` and helpers returning them carry their values by key; before, both dict carriers. The
 * builders and consumers once silent everywhere, ones/zeros filled at a mask, zeros filled with -inf for SDPA, a
 * transformers model built from a config and Keras 3's value_mask, decide since the fixes that came with them.)
 */
const SILENT_CARRIERS: ReadonlySet<string> = new Set<string>();

const silentToday = (c: Cell): boolean => SILENT_CARRIERS.has(c.carrier.name);

const opposite = (m: Meaning): Meaning => (m === 'keep' ? 'ignore' : 'keep');

async function att002(src: string): Promise<string[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === 'ATT002' || f.code === 'ATT000')
    .map((f) => `${f.code} ${f.line}:${f.column} ${f.message}`);
}

describe('ATT002 mask matrix: builder × carrier × consumer', () => {
  const all = cells();

  it('covers every builder, carrier and consumer of the matrix', () => {
    assert.ok(all.length > 1000, `${all.length} cells`);
    assert.ok(all.some((c) => !silentToday(c)));
  });

  for (const cell of all) {
    it(cell.id, async () => {
      const correct = program(cell.builder, cell.consumer.expects, cell.carrier, cell.consumer);
      const inverted = program(cell.builder, opposite(cell.consumer.expects), cell.carrier, cell.consumer);
      assert.deepEqual(await att002(correct), [], `correct form reported:\n${correct}`);
      const found = await att002(inverted);
      if (silentToday(cell)) assert.deepEqual(found, [], `listed as silent, now reported (update SILENT_CARRIERS):\n${inverted}`);
      else assert.equal(found.length, 1, `inverted form: ${found.length} findings\n${found.join('\n')}\n${inverted}`);
    });
  }
});
