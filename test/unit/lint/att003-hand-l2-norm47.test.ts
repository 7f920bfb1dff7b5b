// Session 47 (eng-s47a): ATT003 and queries and keys made unit vectors by an L2 norm written out by hand.
//
// Class: cosine attention (qk-norm by L2 normalisation) whose norm is written out rather than called as
// `F.normalize` or `x.norm()`: `def unit(x, eps): return x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1,
// keepdims=True)), eps)` (MLX, NumPy, torch alike), then a learned gain (`* self.q_gain`, a tensor of ones), a rotary
// embedding written out (`head * mx.cos(angles) + turned * mx.sin(angles)`), keys joined with a cache object's
// (`k, v = cache.extend(layer, k, v)`, a method of the file that concatenates them), and a fixed temperature on the
// scores. The scores are cosines times the temperature: no 1/sqrt(d) is missing. The regression group's one false
// finding (b41-06-clean) was this. Decided by operations only: the helper's return is its argument divided by the
// square root of a sum of its own squares; the rotation multiplies by a cos() and a sin(); the gain is bound to ones;
// the cache method concatenates the keys it is handed. The same code without the division by the norm is reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const MLX = (unit: string): string => `import mlx.core as mx
import mlx.nn as nn


def unit(x, eps=1e-12):
    return ${unit}


def rotate_pairs(x, angles):
    span = angles.shape[-1]
    head, tail = x[..., :span], x[..., span:]
    paired = head.reshape(*head.shape[:-1], -1, 2)
    turned = mx.stack([-paired[..., 1], paired[..., 0]], axis=-1).reshape(head.shape)
    return mx.concatenate([head * mx.cos(angles) + turned * mx.sin(angles), tail], axis=-1)


class KeyCache:
    def __init__(self, depth):
        self.keys, self.values = [None] * depth, [None] * depth

    def extend(self, layer, k, v):
        if self.keys[layer] is not None:
            k = mx.concatenate([self.keys[layer], k], axis=2)
            v = mx.concatenate([self.values[layer], v], axis=2)
        self.keys[layer], self.values[layer] = k, v
        return k, v


class CosineAttention(nn.Module):
    def __init__(self, dim, heads, temperature=10.0):
        super().__init__()
        self.heads, self.head_dim, self.temperature = heads, dim // heads, temperature
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.q_gain = mx.ones((heads, 1, dim // heads))
        self.k_gain = mx.ones((heads, 1, dim // heads))

    def __call__(self, x, angles, cache=None, layer=0):
        b, n, _ = x.shape
        split = lambda t: t.reshape(b, n, self.heads, self.head_dim).transpose(0, 2, 1, 3)
        q = rotate_pairs(unit(split(self.wq(x))) * self.q_gain, angles)
        k = rotate_pairs(unit(split(self.wk(x))) * self.k_gain, angles)
        v = split(self.wv(x))
        if cache is not None:
            k, v = cache.extend(layer, k, v)
        scores = mx.matmul(q, k.transpose(0, 1, 3, 2)) * self.temperature
        weights = mx.softmax(scores, axis=-1)
        return mx.matmul(weights, v).transpose(0, 2, 1, 3).reshape(b, n, -1)
`;

const HAND_NORM = 'x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1, keepdims=True)), eps)';

describe('ATT003 queries and keys normalised by a hand-written L2 norm (session 47)', () => {
  it('is silent on cosine attention whose norm is written out, through a gain, a rotation and a cache', async () => {
    assert.deepEqual(await findingLines(MLX(HAND_NORM), 'ATT003'), []);
    // The root written as a power, the epsilon added inside it, the square as `x ** 2`.
    assert.deepEqual(await findingLines(MLX('x / (mx.sum(x ** 2, axis=-1, keepdims=True) + eps) ** 0.5'), 'ATT003'), []);
  });

  it('reports the same code when the helper does not divide by the norm of its argument', async () => {
    // No division at all: the projections are unscaled.
    assert.deepEqual(await findingLines(MLX('x'), 'ATT003'), [48]);
    // Divided by the norm of something else (a norm over the sequence, of another tensor): not a unit vector.
    assert.deepEqual(await findingLines(MLX('x / mx.sqrt(mx.sum(eps * eps))'), 'ATT003'), [48]);
    // A sum without the square: an L1-like rescale, not this.
    assert.deepEqual(await findingLines(MLX('x / mx.sqrt(mx.sum(x, axis=-1, keepdims=True))'), 'ATT003'), [48]);
  });

  it('reports keys joined with a cache method that does not concatenate them', async () => {
    const src = MLX(HAND_NORM).replace('k = mx.concatenate([self.keys[layer], k], axis=2)', 'k = self.keys[layer] * 0 + mx.broadcast_to(mx.mean(k), k.shape)');
    // The rotation and gain still keep q normalised, but k is no longer what it was: not both, so reported.
    assert.deepEqual(await findingLines(src, 'ATT003'), [48]);
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
