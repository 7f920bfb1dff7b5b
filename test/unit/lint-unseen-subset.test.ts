import { strict as assert } from 'node:assert';
import { perBatchTotals, sumWithout } from '../lint-unseen/subset';

// A report in the shape print.ts writes: batches alone, a combined section (not a batch of its own), per-rule rows.
const REPORT = `lint unseen, unseen (batch-3): 4 cases (4 files, 2 expectations) from 4 repositories
overall: precision 1.000  recall 0.500  F1 0.667
rule     TP  FP  FN  precision  recall
ATT001    1   0   1      1.000   0.500
overall   1   0   1      1.000   0.500
lint unseen, unseen (batch-4): 3 cases (3 files, 3 expectations) from 3 repositories
overall   2   1   1      0.667   0.667
lint unseen, unseen (batch-3 + batch-4): 7 cases (7 files, 5 expectations) from 7 repositories
overall   3   1   2      0.750   0.600
lint unseen, unseen (batch-5): 2 cases (2 files, 1 expectations) from 2 repositories
overall   0   2   1      0.000   0.000
`;

describe('lint unseen: sums of per-batch rows (subset.ts)', () => {
  it('reads each batch-alone overall row and not the combined sections', () => {
    const t = perBatchTotals(REPORT);
    assert.deepEqual([...t.keys()], ['batch-3', 'batch-4', 'batch-5']);
    assert.deepEqual(t.get('batch-4'), { tp: 2, fp: 1, fn: 1 });
  });

  it('sums every batch but the ones left out', () => {
    const s = sumWithout(perBatchTotals(REPORT), new Set(['batch-5']));
    assert.deepEqual(s, { batches: ['batch-3', 'batch-4'], tp: 3, fp: 1, fn: 2 });
  });
});
