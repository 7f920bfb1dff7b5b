// scripts/unseen-first-contact.ts: the block reporting a batch alone is found in a baseline, never a combined one.
import { strict as assert } from 'node:assert';
import { firstContactOf } from '../../scripts/unseen-first-contact';

const BASELINE = [
  'lint unseen, regression batches (batch-1 + batch-2): 80 cases (106 files, 38 expectations) from 57 repositories',
  'overall  32   0   6      1.000   0.842',
  'lint unseen, unseen (batch-3 + batch-7): 94 cases (180 files, 40 expectations) from 60 repositories',
  'overall  20   4  20      0.833   0.500',
  'lint unseen, unseen (batch-17): 12 cases (34 files, 3 expectations) from 10 repositories',
  'rule     TP  FP  FN  precision  recall',
  'ATT001    0   0   1          —   0.000',
  'overall   0   1   3      0.000   0.000',
  'lint unseen, batch-2: 35 cases (42 files, 17 expectations) from 23 repositories',
  'overall   3   3  14      0.500   0.176',
].join('\n');

describe('unseen first contact (scripts/unseen-first-contact.ts)', () => {
  it('reads the overall row of the block that reports the batch alone', () => {
    assert.deepEqual(firstContactOf(17, BASELINE, 'f'), { batch: 17, file: 'f', tp: 0, fp: 1, fn: 3, cases: 12 });
    assert.deepEqual(firstContactOf(2, BASELINE, 'f'), { batch: 2, file: 'f', tp: 3, fp: 3, fn: 14, cases: 35 });
  });
  it('never takes a combined block for a batch it names', () => {
    assert.equal(firstContactOf(3, BASELINE, 'f'), undefined);
    assert.equal(firstContactOf(7, BASELINE, 'f'), undefined);
    assert.equal(firstContactOf(1, BASELINE, 'f'), undefined);
  });
});
