// Session 47 (eng-s47a): ATT003 and queries and keys made unit vectors by an L2 norm written out by hand.
//
// Class: cosine attention (qk-norm by L2 normalisation) whose norm is written out rather than called as
// `F.normalize` or `x.norm()`: a helper returning `x / sqrt(sum(x * x, axis=-1))` with an epsilon guard (MLX, NumPy,
// torch alike), then a learned gain (a tensor of ones), a rotary embedding written out (a helper multiplying by a
// `cos(...)` and a `sin(...)`), keys joined with a cache object's method that concatenates them, and a fixed temperature
// on the scores. The scores are cosines times the temperature: no 1/sqrt(d) is missing. The regression group's one
// false finding (b41-06-clean) was of this class; the example here (the fixture hand_l2_norm_cosine_ok.py) is written
// for the class, not taken from that case. Decided by operations only: the helper's return is its argument divided by
// the square root of a sum of its own squares; the rotation multiplies by a cos() and a sin(); the gain is bound to
// ones; the cache method concatenates the keys it is handed. The same code without the division by the norm is
// reported.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findingLines, workspaceFindingLines } from './helpers';

/** The correct module (the fixture): `unit` returns its argument divided by its own L2 norm, written out. */
const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'ATT003', 'hand_l2_norm_cosine_ok.py'), 'utf8');
const HAND_NORM = 'x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1, keepdims=True)), eps)';
/** The fixture with another body for `unit`. */
const MLX = (unit: string): string => {
  assert.ok(FIXTURE.includes(`return ${HAND_NORM}`), 'the fixture no longer returns HAND_NORM from unit()');
  return FIXTURE.replace(`return ${HAND_NORM}`, `return ${unit}`);
};

/** The 1-based line of the scores' softmax in the MLX module (where ATT003 reports). */
const SOFTMAX_LINE =
  MLX('x')
    .split('\n')
    .findIndex((l) => l.includes('mx.softmax(logits')) + 1;

describe('ATT003 queries and keys normalised by a hand-written L2 norm (session 47)', () => {
  it('is silent on cosine attention whose norm is written out, through a gain, a rotation and a cache', async () => {
    assert.deepEqual(await findingLines(MLX(HAND_NORM), 'ATT003'), []);
    // The root written as a power, the epsilon added inside it, the square as `x ** 2`.
    assert.deepEqual(await findingLines(MLX('x / (mx.sum(x ** 2, axis=-1, keepdims=True) + eps) ** 0.5'), 'ATT003'), []);
  });

  it('reports the same code when the helper does not divide by the norm of its argument', async () => {
    // No division at all: the projections are unscaled.
    assert.deepEqual(await findingLines(MLX('x'), 'ATT003'), [SOFTMAX_LINE]);
    // Divided by the norm of something else (a norm over the sequence, of another tensor): not a unit vector.
    assert.deepEqual(await findingLines(MLX('x / mx.sqrt(mx.sum(eps * eps))'), 'ATT003'), [SOFTMAX_LINE]);
    // A sum without the square: an L1-like rescale, not this.
    assert.deepEqual(await findingLines(MLX('x / mx.sqrt(mx.sum(x, axis=-1, keepdims=True))'), 'ATT003'), [SOFTMAX_LINE]);
  });

  it('reports keys joined with a cache method that does not concatenate them', async () => {
    const src = MLX(HAND_NORM).replace('k = mx.concatenate([self.k, k], axis=-2)', 'k = self.k * 0 + mx.broadcast_to(mx.mean(k), k.shape)');
    assert.notEqual(src, MLX(HAND_NORM), 'the cache method was not rewritten');
    // The rotation and gain still keep q normalised, but k is no longer what it was: not both, so reported.
    assert.deepEqual(await findingLines(src, 'ATT003'), [SOFTMAX_LINE]);
  });

  it('reads the helper from another workspace file (value level: the division by the norm crosses with q and k)', async () => {
    const UTILS = `import torch


def unit(x, eps=1e-6):
    return x / torch.sqrt(torch.sum(x * x, dim=-1, keepdim=True)).clamp(min=eps)


def scale_down(x, eps=1e-6):
    return x / torch.sqrt(torch.sum(eps * eps)).clamp(min=eps)
`;
    const MODEL = (helper: string): string => `import torch
import torch.nn as nn

from utils import ${helper}


class CosineAttention(nn.Module):
    def __init__(self, dim, heads, temperature=10.0):
        super().__init__()
        self.heads, self.temperature = heads, temperature
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        b, n, d = x.shape
        q = ${helper}(self.wq(x).view(b, n, self.heads, -1).transpose(1, 2))
        k = ${helper}(self.wk(x).view(b, n, self.heads, -1).transpose(1, 2))
        scores = q @ k.transpose(-2, -1) * self.temperature
        return scores.softmax(dim=-1)
`;
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': UTILS, 'model.py': MODEL('unit') }, 'model.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': UTILS, 'model.py': MODEL('scale_down') }, 'model.py', 'ATT003'), [19]);
  });
});
