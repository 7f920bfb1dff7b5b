// Session 39 (eng-reg-s39): the false findings of ATT003 and ATT007 in regression batch 32 (a NumPy decoder written
// from scratch), as classes of correct code.
//
// 1. ATT003: a query that comes out of a helper as an unnamed product (`x @ w` reshaped into heads, which the evaluator
//    first reads as possible scores) and is then multiplied by a factor whose value the code does not show
//    (`1 / np.sqrt(d_key) * Q` with d_key read from a config dict) lost that factor: the product left the scores' stage
//    and kept the query's operations without it, so the scores were claimed unscaled. The factor is now an unknown
//    step on the way, as it is on a named query (`q * gamma`): no claim that no scale was applied.
// 2. ATT007: a 0/1 mask times -inf whose NaN the code replaces before using it (`np.nan_to_num(-np.inf * tri, nan=0.0)`,
//    `torch.nan_to_num(...)`, `.nan_to_num()`, `m[np.isnan(m)] = 0.0`): NaN becomes 0 where the mask keeps and -inf the most negative finite
//    value where it hides, so the product is a correct additive mask. The replacement must be of that product (a
//    `nan=` that is finite); one of the weights, or of another mask, clears nothing.
// 3. and 4. See below (the feature-map reshape of session 38's notes and its axial-attention probe; decayed scores).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// Q, K: (B, H, T, d_key) from a helper that splits `x @ w` into heads; the scores (B, H, T, T).
const SPLIT_HEADS = `import numpy as np


class Decoder:
    def __init__(self, weights, cfg):
        self.wq = weights["wq"]
        self.wk = weights["wk"]
        self.d_model = cfg["d_model"]
        self.n_heads = cfg["n_heads"]
        self.d_key = cfg["d_key"]

    def split(self, x, w, width):
        # x: (B, T, d_model), w: (d_model, n_heads * width) -> (B, n_heads, T, width)
        B, T = x.shape[0], x.shape[1]
        return np.transpose(np.reshape(x @ w, [B, T, self.n_heads, width]), [0, 2, 1, 3])

    def softmax(self, s):
        e = np.exp(s - np.max(s, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)

    def attend(self, x):
        d_key = self.d_key
        Q = self.split(x, self.wq, d_key)
        K = self.split(x, self.wk, d_key)
        # (B, H, T, T)
        return self.softmax(1 / np.sqrt(d_key) * Q @ np.transpose(K, [0, 1, 3, 2]))
`;

const LAYERS_PY = `import numpy as np


def split_heads(x, w, n_heads, width):
    # x: (B, T, d_model), w: (d_model, n_heads * width) -> (B, n_heads, T, width)
    B, T = x.shape[0], x.shape[1]
    return np.transpose(np.reshape(x @ w, [B, T, n_heads, width]), [0, 2, 1, 3])
`;

const MODEL_PY = (scores: string): string => `import numpy as np
from layers import split_heads


def softmax(s):
    e = np.exp(s - np.max(s, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def attend(x, params, cfg):
    d_key = cfg["d_key"]
    Q = split_heads(x, params["wq"], cfg["n_heads"], d_key)
    K = split_heads(x, params["wk"], cfg["n_heads"], d_key)
    # (B, H, T, T)
    return softmax(${scores})
`;

const FACTOR = '1 / np.sqrt(d_key) * Q @ np.transpose(K, [0, 1, 3, 2])';

describe('engreg39 (1): a factor the code does not show the value of, on a query from an unnamed product (ATT003)', () => {
  it('is silent on 1 / np.sqrt(d_key) * Q with d_key read from a config dict', async () => {
    assert.deepEqual(await findingLines(SPLIT_HEADS, 'ATT003'), []);
  });
  it('is silent on the factor written after the query, or as a reciprocal', async () => {
    assert.deepEqual(await findingLines(SPLIT_HEADS.replace('1 / np.sqrt(d_key) * Q @', 'Q * (1 / np.sqrt(d_key)) @'), 'ATT003'), []);
    assert.deepEqual(await findingLines(SPLIT_HEADS.replace('1 / np.sqrt(d_key) * Q @', 'np.reciprocal(np.sqrt(d_key)) * Q @'), 'ATT003'), []);
  });
  it('is silent on the same code in JAX', async () => {
    assert.deepEqual(await findingLines(SPLIT_HEADS.replace('import numpy as np', 'import jax.numpy as np'), 'ATT003'), []);
  });
  it('is silent when the helper that splits the heads sits in another file', async () => {
    const files = { 'layers.py': LAYERS_PY, 'model.py': MODEL_PY(FACTOR) };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT003'), []);
  });
  it('still reports the same scores with no factor at all, here and across files', async () => {
    assert.deepEqual(await findingLines(SPLIT_HEADS.replace('1 / np.sqrt(d_key) * Q @', 'Q @'), 'ATT003'), [26]);
    const files = { 'layers.py': LAYERS_PY, 'model.py': MODEL_PY('Q @ np.transpose(K, [0, 1, 3, 2])') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT003'), [15]);
  });
  it('still reports the scores when the factor goes on the values instead', async () => {
    const src = SPLIT_HEADS.replace(
      'return self.softmax(1 / np.sqrt(d_key) * Q @ np.transpose(K, [0, 1, 3, 2]))',
      'V = 1 / np.sqrt(d_key) * self.split(x, self.wq, d_key)\n        return self.softmax(Q @ np.transpose(K, [0, 1, 3, 2])) @ V',
    );
    assert.deepEqual(await findingLines(src, 'ATT003'), [27]);
  });
});

// (T, T) additive causal masks built as -inf times a 0/1 triangle, NaN replaced.
const MODULE_MASK = `import numpy as np

T = 16
# (T, T): 0 on and below the diagonal, -inf strictly above it (nan_to_num turns 0 * -inf into 0)
CAUSAL = np.nan_to_num(-np.inf * np.triu(np.ones((T, T)), k=1), nan=0.0)


def attend(q, k, v):
    # q, k, v: (T, d)
    s = q @ k.T / np.sqrt(q.shape[-1]) + CAUSAL
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`;
const RENAMED_CLEAN = `import numpy as np


def attend(q, k, v):
    # q, k, v: (T, d)
    T = q.shape[0]
    bias = -np.inf * np.triu(np.ones((T, T)), k=1)
    bias = np.nan_to_num(bias)
    s = q @ k.T / np.sqrt(q.shape[-1]) + bias
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`;
const TORCH_FN = `import math
import torch


def attend(q, k, v):
    # q, k, v: (B, H, T, d)
    T = q.size(-2)
    bias = torch.nan_to_num(float("-inf") * torch.triu(torch.ones(T, T, device=q.device), diagonal=1), 0.0)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
    return torch.softmax(s, dim=-1) @ v
`;
const TORCH_METHOD = `import math
import torch


def attend(q, k, v):
    # q, k, v: (B, H, T, d)
    T = q.size(-2)
    bias = (torch.triu(torch.ones(T, T, device=q.device), diagonal=1) * float("-inf")).nan_to_num(nan=0.0)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
    return torch.softmax(s, dim=-1) @ v
`;
const JAX_FN = `import jax
import jax.numpy as jnp


def attend(q, k, v):
    # q, k, v: (T, d)
    T = q.shape[0]
    bias = jnp.nan_to_num(-jnp.inf * jnp.triu(jnp.ones((T, T)), k=1), nan=0.0)
    s = q @ k.T / jnp.sqrt(q.shape[-1]) + bias
    return jax.nn.softmax(s, axis=-1) @ v
`;
const IN_INIT = `import numpy as np


class Decoder:
    def __init__(self, cfg):
        self.T = cfg["context"]
        # (T, T) additive causal mask
        self.causal = np.nan_to_num(-np.inf * np.triu(np.ones((self.T, self.T), dtype=np.float32), k=1), nan=0.0)

    def attend(self, q, k, v):
        # q, k, v: (B, T, d)
        s = q @ np.transpose(k, [0, 2, 1]) / np.sqrt(q.shape[-1]) + self.causal
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)) @ v
`;
const WEIGHTS_CLEANED = `import numpy as np


def attend(q, k, v):
    # q, k, v: (T, d)
    T = q.shape[0]
    bias = -np.inf * np.triu(np.ones((T, T)), k=1)
    s = q @ k.T / np.sqrt(q.shape[-1]) + bias
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = np.nan_to_num(e / e.sum(axis=-1, keepdims=True))
    return w @ v
`;
const OTHER_CLEANED = `import numpy as np


def attend(q, k, v, pad):
    # q, k, v: (T, d); pad: (T,) 1 at padded keys
    T = q.shape[0]
    bias = -np.inf * np.triu(np.ones((T, T)), k=1)
    pad_bias = np.nan_to_num(-np.inf * pad[None, :])
    s = q @ k.T / np.sqrt(q.shape[-1]) + bias + pad_bias
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`;

const MASKS_PY = (body: string): string => `import numpy as np


def causal_bias(T):
    # (T, T): 0 where a query may look, -inf at later keys
    upper = np.triu(np.ones((T, T), dtype=np.float32), k=1)
    return ${body}
`;

const USER_PY = `import numpy as np
from masks import causal_bias


def attend(q, k, v):
    # q, k, v: (T, d)
    s = q @ k.T / np.sqrt(q.shape[-1]) + causal_bias(q.shape[0])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`;

const ISNAN_INDEX = `import numpy as np


def attend(q, k, v):
    # q, k, v: (T, d)
    T = q.shape[0]
    bias = -np.inf * np.triu(np.ones((T, T)), k=1)
    bias[np.isnan(bias)] = 0.0
    s = q @ k.T / np.sqrt(q.shape[-1]) + bias
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`;
const ISNAN_METHOD_INDEX = `import math
import torch


def attend(q, k, v):
    # q, k, v: (B, H, T, d)
    T = q.size(-2)
    bias = float("-inf") * torch.triu(torch.ones(T, T, device=q.device), diagonal=1)
    bias[bias.isnan()] = 0.0
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
    return torch.softmax(s, dim=-1) @ v
`;

describe('engreg39 (2): -inf times a 0/1 mask whose NaN nan_to_num replaces (ATT007)', () => {
  it('is silent on np.nan_to_num of the product at module level, nan=0.0', async () => {
    assert.deepEqual(await findingLines(MODULE_MASK, 'ATT007'), []);
  });
  it('is silent on a name cleaned by a later statement (nan_to_num with its default nan)', async () => {
    assert.deepEqual(await findingLines(RENAMED_CLEAN, 'ATT007'), []);
  });
  it('is silent on torch.nan_to_num with nan given by position, and on the method form', async () => {
    assert.deepEqual(await findingLines(TORCH_FN, 'ATT007'), []);
    assert.deepEqual(await findingLines(TORCH_METHOD, 'ATT007'), []);
  });
  it('is silent on jnp.nan_to_num', async () => {
    assert.deepEqual(await findingLines(JAX_FN, 'ATT007'), []);
  });
  it('is silent on a mask built in __init__ and added in another method', async () => {
    assert.deepEqual(await findingLines(IN_INIT, 'ATT007'), []);
  });
  it('is silent on a helper of another file that returns the cleaned product', async () => {
    const files = { 'masks.py': MASKS_PY('np.nan_to_num(upper * -np.inf, nan=0.0)'), 'model.py': USER_PY };
    assert.deepEqual(await workspaceFindingLines(files, 'masks.py', 'ATT007'), []);
  });
  it('still reports the product with no replacement, here and in a helper of another file', async () => {
    assert.deepEqual(
      await findingLines(
        MODULE_MASK.replace('np.nan_to_num(-np.inf * np.triu(np.ones((T, T)), k=1), nan=0.0)', '-np.inf * np.triu(np.ones((T, T)), k=1)'),
        'ATT007',
      ),
      [5],
    );
    const files = { 'masks.py': MASKS_PY('upper * -np.inf'), 'model.py': USER_PY };
    assert.deepEqual(await workspaceFindingLines(files, 'masks.py', 'ATT007'), [7]);
  });
  it('is silent on the NaN written over by index (m[np.isnan(m)] = 0.0, m[m.isnan()] = 0.0)', async () => {
    assert.deepEqual(await findingLines(ISNAN_INDEX, 'ATT007'), []);
    assert.deepEqual(await findingLines(ISNAN_METHOD_INDEX, 'ATT007'), []);
  });
  it('still reports a copy cleaned under another name while the product itself is added', async () => {
    assert.deepEqual(await findingLines(RENAMED_CLEAN.replace('    bias = np.nan_to_num(bias)', '    clean = np.nan_to_num(bias)'), 'ATT007'), [7]);
    const copy = ISNAN_INDEX.replace('    bias[np.isnan(bias)] = 0.0', '    other = bias.copy()\n    other[np.isnan(other)] = 0.0');
    assert.deepEqual(await findingLines(copy, 'ATT007'), [7]);
    assert.deepEqual(await findingLines(ISNAN_INDEX.replace('bias[np.isnan(bias)] = 0.0', 'bias[np.isnan(bias)] = np.nan'), 'ATT007'), [7]);
  });
  it('still reports a replacement that writes NaN back (nan=np.nan)', async () => {
    assert.deepEqual(await findingLines(MODULE_MASK.replace('nan=0.0', 'nan=np.nan'), 'ATT007'), [5]);
  });
  it('still reports when only the weights are cleaned, or another mask is', async () => {
    assert.deepEqual(await findingLines(WEIGHTS_CLEANED, 'ATT007'), [7]);
    assert.deepEqual(await findingLines(OTHER_CLEANED, 'ATT007'), [7]);
  });
});

// 3. ATT005 / ATT001: a feature map (B, C, H, W) reshaped into heads along one spatial axis (axial attention, row or
//    column attention): `reshape(B * W, heads, dh, H)` read the image height `H` (a name that also says head count) as a
//    second heads axis, so the keys looked laid out with the heads after the tokens. One reshape splits the width into
//    heads once; where the code shows which size does (another size of the reshape is the width over it, `dh = C //
//    heads`), the other head-named sizes are not heads.
const ROW_FN = `import torch


def height_attention(q, k, v, heads):
    # q, k, v: (B, C, H, W) feature maps; each column attends along its height
    B, C, H, W = q.shape
    dh = C // heads
    # (B, C, H, W) -> (B*W, heads, H, dh)
    q = q.permute(0, 3, 1, 2).reshape(B * W, heads, dh, H).transpose(-1, -2)
    k = k.permute(0, 3, 1, 2).reshape(B * W, heads, dh, H).transpose(-1, -2)
    v = v.permute(0, 3, 1, 2).reshape(B * W, heads, dh, H).transpose(-1, -2)
    attn = torch.softmax(q @ k.transpose(-1, -2) / dh ** 0.5, dim=-1)
    return attn @ v
`;
const AXIAL_MODULE = `import torch
import torch.nn as nn


class AxialBlock(nn.Module):
    def __init__(self, dim, n_heads=8):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.to_qkv = nn.Conv2d(dim, dim * 3, kernel_size=1)

    def forward(self, x):
        b, c, h, w = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=1)
        # (b, c, h, w) -> (b*w, n_heads, h, head_dim): attention along the height
        q, k, v = (t.permute(0, 3, 1, 2).reshape(b * w, self.n_heads, self.head_dim, h).transpose(2, 3) for t in (q, k, v))
        attn = (q @ k.transpose(2, 3) * self.head_dim ** -0.5).softmax(dim=-1)
        return (attn @ v).transpose(2, 3).reshape(b, w, c, h).permute(0, 2, 3, 1)
`;
const COLUMN_INLINE = `import torch


def column_attention(q, k, v, heads):
    # q, k, v: (B, C, H, W); attention along H in each column
    B, C, H, W = q.shape
    q, k, v = (t.permute(0, 3, 1, 2).reshape(-1, heads, C // heads, H) for t in (q, k, v))  # (B*W, heads, dh, H)
    scores = q.transpose(-1, -2) @ k / (C // heads) ** 0.5  # (B*W, heads, H, H)
    return torch.softmax(scores, dim=-1) @ v.transpose(-1, -2)
`;
const SCORES_FEATURES_FIRST = `import torch


def height_scores(q, k, heads):
    # q, k: (B, C, H, W); keys laid out (B*W, heads, dh, H), features before the positions
    B, C, H, W = q.shape
    nh = heads
    q = q.permute(0, 3, 1, 2).reshape(B * W, nh, C // nh, H)
    k = k.permute(0, 3, 1, 2).reshape(B * W, nh, C // nh, H)
    return torch.softmax(q.transpose(-1, -2) @ k / (C // nh) ** 0.5, dim=-1)
`;
const ROWS_HELPER = `def to_rows(t, heads):
    # (B, C, H, W) -> (B*W, heads, H, dh)
    B, C, H, W = t.shape
    return t.permute(0, 3, 1, 2).reshape(B * W, heads, C // heads, H).transpose(-1, -2)
`;
const ROWS_USER = `import torch
import torch.nn as nn
from layers import to_rows


class HeightAttention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Conv2d(dim, 3 * dim, 1)

    def forward(self, x):
        q, k, v = (to_rows(t, self.heads) for t in self.qkv(x).chunk(3, dim=1))
        attn = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return attn @ v
`;
const TOKENS_THEN_HEADS = `import torch
import torch.nn as nn


class SpatialAttention(nn.Module):
    def __init__(self, channels, heads=4):
        super().__init__()
        self.heads = heads
        self.dh = channels // heads
        self.qkv = nn.Conv2d(channels, 3 * channels, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=1)
        # (B, C, H, W) -> (B, H*W, heads, dh): heads left after the tokens
        q, k, v = (t.flatten(2).transpose(1, 2).reshape(B, H * W, self.heads, self.dh) for t in (q, k, v))
        attn = torch.softmax(q @ k.transpose(-1, -2) / self.dh ** 0.5, dim=-1)
        return attn @ v
`;
const VIEW_HEADS_LAST = `import torch


def attend(x, wq, wk, H):
    # x: (B, T, C); H heads
    B, T, C = x.shape
    q = (x @ wq).view(B, T, H, C // H)
    k = (x @ wk).view(B, T, H, C // H)
    return torch.softmax(q @ k.transpose(-1, -2) / (C // H) ** 0.5, dim=-1)
`;

describe('engreg39 (3): a feature map split into heads along one spatial axis (ATT005, ATT001)', () => {
  it('is silent on B, C, H, W = q.shape then reshape(B * W, heads, C // heads, H).transpose(-1, -2)', async () => {
    assert.deepEqual(await findingLines(ROW_FN, 'ATT005'), []);
  });
  it('is silent on a module with a 1x1 conv projection and lower-case sizes', async () => {
    assert.deepEqual(await findingLines(AXIAL_MODULE, 'ATT005'), []);
  });
  it('is silent on the softmax of such scores (ATT001), the split written inline or under another name', async () => {
    assert.deepEqual(await findingLines(COLUMN_INLINE, 'ATT001'), []);
    assert.deepEqual(await findingLines(SCORES_FEATURES_FIRST, 'ATT001'), []);
  });
  it('is silent when the reshape sits in a helper of another file', async () => {
    const files = { 'layers.py': ROWS_HELPER, 'model.py': ROWS_USER };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT005'), []);
  });
  it('still reports heads left after the tokens of a flattened feature map, and a view with the heads after T', async () => {
    assert.deepEqual(await findingLines(TOKENS_THEN_HEADS, 'ATT005'), [17]);
    assert.deepEqual(await findingLines(VIEW_HEADS_LAST, 'ATT005'), [9]);
  });
});

// 4. Core: q·kᵀ scores multiplied elementwise by a tensor the code does not explain (a distance decay, a learned gate)
//    are still those scores (by an unknown factor), so a mask op on them is judged: a discarded `scores.masked_fill(...)`
//    after `scores = scores * decay` left them unmasked into the softmax (regression b25-05). An unnamed product
//    (`x @ w`) times such a tensor is not claimed to be scores.
const DECAYED = `import math
import torch
import torch.nn.functional as F


def decayed_attention(q, k, v, keep, gamma):
    # q, k, v: (B, H, T, d); keep: (1, 1, T, T), 1 where a query may look
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, T)
    pos = torch.arange(scores.size(-1), device=q.device)
    dist = (pos[None, :] - pos[:, None]).abs().float()  # (T, T)
    decay = torch.exp(-F.softplus(gamma) * dist)  # (H, T, T)
    scores = scores * decay
    scores.masked_fill(keep == 0, -1e9)
    return F.softmax(scores, dim=-1) @ v
`;
const GATED_POOL = `import torch
import torch.nn.functional as F


def gated_pool(x, w, gate):
    # x: (B, T, D), w: (D, 1); an unnamed product times a gate, then a softmax over the tokens
    logits = (x @ w) * gate  # (B, T, 1)
    logits.masked_fill(gate == 0, -1e9)
    return F.softmax(logits, dim=1)
`;
const DECAY_PY = `import torch
import torch.nn.functional as F


def distance_decay(n, gamma):
    # (H, n, n): exp(-softplus(gamma) * |i - j|)
    pos = torch.arange(n)
    return torch.exp(-F.softplus(gamma) * (pos[None, :] - pos[:, None]).abs().float())
`;
const DECAY_USER = `import math
import torch.nn.functional as F
from decay import distance_decay


def attend(q, k, v, keep, gamma):
    # q, k, v: (B, H, T, d)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores * distance_decay(q.size(-2), gamma)
    scores.masked_fill(keep == 0, -1e9)
    return F.softmax(scores, dim=-1) @ v
`;

describe('engreg39 (4): scores times an unexplained tensor stay scores (core; ATT007 discarded mask)', () => {
  it('reports a discarded masked_fill after scores = scores * decay', async () => {
    assert.deepEqual(await findingLines(DECAYED, 'ATT007'), [13]);
  });
  it('reports it when the decay comes from a helper of another file', async () => {
    const files = { 'decay.py': DECAY_PY, 'attn.py': DECAY_USER };
    assert.deepEqual(await workspaceFindingLines(files, 'attn.py', 'ATT007'), [10]);
  });
  it('is silent when the fill is kept (assigned, or in place)', async () => {
    const kept = DECAYED.replace('    scores.masked_fill(keep == 0, -1e9)', '    scores = scores.masked_fill(keep == 0, -1e9)');
    assert.deepEqual(await findingLines(kept, 'ATT007'), []);
    const inPlace = DECAYED.replace('scores.masked_fill(keep == 0', 'scores.masked_fill_(keep == 0');
    assert.deepEqual(await findingLines(inPlace, 'ATT007'), []);
  });
  it('is silent on an unnamed product times a gate (no query or keys in view)', async () => {
    assert.deepEqual(await findingLines(GATED_POOL, 'ATT007'), []);
  });
  it('claims no missing scale on decayed scores (the factor is an unknown step)', async () => {
    const unscaled = DECAYED.replace(' / math.sqrt(q.size(-1))  # (B, H, T, T)', '  # (B, H, T, T)');
    assert.deepEqual(await findingLines(unscaled, 'ATT003'), []);
  });
});
