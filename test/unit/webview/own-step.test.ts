import { strict as assert } from 'node:assert';
import type { OwnStep } from '../../../src/protocol/engine';
import { describeOwnCell, normaliseOwnSteps, ownDisplayValues, ownStepSummary, ownStepTitle } from '../../../webview/own-step';

const step = (o: Partial<OwnStep>): OwnStep => ({
  step: 1,
  name: 'step_raw',
  own: { data: Float32Array.from([4, -1e9, 2, 8]), shape: [2, 2] },
  block: null,
  maxAbsDiff: 6,
  differing: 3,
  cells: 4,
  first: { row: 0, col: 0, own: 4, reference: 0.5 },
  ...o,
});

describe('webview: the user’s own tensor at a debugger step', () => {
  it('says where it first differs from the reference, with the token labels of the row and column', () => {
    const text = ownStepSummary(step({}), ['The', 'cat'], ['The', 'cat']);
    assert.equal(
      text,
      'Differs from the reference in 3 of 4 cells; max |yours − reference| = 6. First at query 0 “The” → key 0 “The”: yours 4, reference 0.5.',
    );
    assert.equal(ownStepTitle(step({})), 'Your scores at this step: q·kᵀ, never scaled in your code');
    assert.equal(ownStepTitle(step({ step: 0 })), 'Your q·kᵀ, as your matmul gave it');
    assert.equal(
      ownStepSummary(step({ step: 4, name: 'out', first: { row: 1, col: 3, own: 1, reference: 2 } }), ['a', 'b'], []),
      'Differs from the reference in 3 of 4 cells; max |yours − reference| = 6. First at query 1 “b”, dimension 3: yours 1, reference 2.',
    );
  });

  it('says it agrees, and names blocks by their first position when the tensor was kept as block averages', () => {
    assert.equal(ownStepSummary(step({ differing: 0, first: null, maxAbsDiff: 3e-7 }), [], []), 'Agrees with the reference: max |yours − reference| = 3e−7.');
    const blocks = ownStepSummary(step({ block: { rows: 4, cols: 8 }, first: { row: 1, col: 1, own: 3, reference: 1 } }), [], []);
    assert.match(blocks, /First at query 4 → key 8: yours 3, reference 1\. Kept as block averages of 4 × 8 cells/);
    assert.deepEqual(describeOwnCell(step({ block: { rows: 4, cols: 8 } }), null, 1, 0, [], []), ['Queries 4–7 → keys 0–7 (block average)', 'yours 2']);
  });

  it('draws masked fills as masked cells and shows both values in the tooltip', () => {
    assert.deepEqual(Array.from(ownDisplayValues(step({}))), [4, -Infinity, 2, 8]);
    assert.deepEqual(describeOwnCell(step({}), [0.5, -Infinity, 0.25, 1], 0, 1, ['a', 'b'], ['a', 'b']), [
      'Query 0 “a” → key 1 “b”',
      'yours −1.00e+9 · reference −∞',
    ]);
  });

  it('checks what arrives: shapes against data, steps 0..4, NaN from null', () => {
    const arrived = JSON.parse(JSON.stringify([{ ...step({ maxAbsDiff: NaN }), own: { data: [1, 2, 3, 4], shape: [2, 2] } }]));
    const [o] = normaliseOwnSteps(arrived);
    assert.ok(o.own.data instanceof Float32Array && Number.isNaN(o.maxAbsDiff));
    assert.throws(() => normaliseOwnSteps([{ ...arrived[0], own: { data: [1, 2, 3], shape: [2, 2] } }]), /holds 3 values for shape \(2, 2\)/);
    assert.throws(() => normaliseOwnSteps([{ ...arrived[0], step: 7 }]), /step must be an integer in 0\.\.4/);
    assert.deepEqual(normaliseOwnSteps(undefined), []);
  });
});
