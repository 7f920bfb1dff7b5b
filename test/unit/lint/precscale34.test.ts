// Session 33 (precscale34): inverted dropout written by hand on the attention weights (`scale = 1 / (1 - ratio)`, then
// `np.where(mask, w * scale, 0)`) is neither a misplaced scale (ATT004) nor a post-softmax mask (ATT006): the code shows
// the keep reciprocal. (The session's other ATT004 change, the model width read from the code rather than a name, was
// taken back before landing: on the scan's 481 repositories it lost three true findings and drew three false ones.)
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

// ------------------------------------------------------------------------------------------------ 3. inverted dropout

/**
 * A NumPy reference of flash attention's dropout (scan precscan11a, oreo-lp/flash-attention-numpy): a helper that
 * rescales the weights by the reciprocal of the keep probability (line 8) and selects them with a random keep mask
 * (line 10), called on the softmax of each block.
 */
const numpyDropout = (scale: string, select: string, maskExpr = 'np.random.random(size=(4, 4)) >= 0.3'): string => `import numpy as np

DROP = ${maskExpr}


def dropout(array, ratio, mask):
    scale = ${scale}
    array_dp = array * scale
    zero = np.zeros(array.shape, dtype=array.dtype)
    output = ${select}
    return output


def attention(q, k, v):
    qk = np.matmul(q, k.T) / np.sqrt(q.shape[-1])
    p = np.exp(qk - qk.max(-1, keepdims=True))
    s = p / p.sum(-1, keepdims=True)
    return np.matmul(dropout(s, 0.3, DROP), v)
`;

describe('precscale34 class 3: inverted dropout written by hand on the weights (ATT004, ATT006)', () => {
  it('scale = 1 / (1 - ratio) then where(mask, array_dp, 0): neither a misplaced scale nor a post-softmax mask', async () => {
    const src = numpyDropout('1 / (1 - float(ratio))', 'np.where(mask, array_dp, zero)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
    assert.deepEqual(await findingLines(src, 'ATT006'), []);
    // Written as a division of the kept weights.
    const divided = numpyDropout('1.0', 'np.where(mask, array / (1.0 - ratio), zero)');
    assert.deepEqual(await findingLines(divided, 'ATT006'), []);
  });
  it('a scale named so that is no keep reciprocal, after the softmax (scale = 0.125): reported as before', async () => {
    assert.deepEqual(await findingLines(numpyDropout('0.125', 'np.where(mask, array_dp, zero)'), 'ATT004'), [8]);
  });
  it('a select of the weights not rescaled (a mask that hides keys, zeroed after the softmax): reported as before', async () => {
    assert.deepEqual(await findingLines(numpyDropout('1.0', 'np.where(mask, array, zero)'), 'ATT006'), [10]);
  });
  it('weights selected after a factor that is no keep reciprocal (array * 2.0, array / ratio): reported as before', async () => {
    assert.deepEqual(await findingLines(numpyDropout('1.0', 'np.where(mask, array * 2.0, zero)'), 'ATT006'), [10]);
    assert.deepEqual(await findingLines(numpyDropout('1.0', 'np.where(mask, array / ratio, zero)'), 'ATT006'), [10]);
  });
});
