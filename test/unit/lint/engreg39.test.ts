// Session 39 (eng-reg-s39): the false findings of ATT003 and ATT007 in regression batch 32 (a NumPy decoder written
// from scratch), as classes of correct code.
//
// 1. ATT003: a query that comes out of a helper as an unnamed product (`x @ w` reshaped into heads, which the evaluator
//    first reads as possible scores) and is then multiplied by a factor whose value the code does not show
//    (`1 / np.sqrt(d_key) * Q` with d_key read from a config dict) lost that factor: the product left the scores' stage
//    and kept the query's operations without it, so the scores were claimed unscaled. The factor is now an unknown
//    step on the way, as it is on a named query (`q * gamma`): no claim that no scale was applied.
// 2. ATT007: a 0/1 mask times -inf whose NaN the code replaces before using it (`np.nan_to_num(-np.inf * tri, nan=0.0)`,
//    `torch.nan_to_num(...)`, `.nan_to_num()`): NaN becomes 0 where the mask keeps and -inf the most negative finite
//    value where it hides, so the product is a correct additive mask. The replacement must be of that product (a
//    `nan=` that is finite); one of the weights, or of another mask, clears nothing.
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
    assert.deepEqual(await findingLines(MODULE_MASK.replace('np.nan_to_num(-np.inf * np.triu(np.ones((T, T)), k=1), nan=0.0)', '-np.inf * np.triu(np.ones((T, T)), k=1)'), 'ATT007'), [5]);
    const files = { 'masks.py': MASKS_PY('upper * -np.inf'), 'model.py': USER_PY };
    assert.deepEqual(await workspaceFindingLines(files, 'masks.py', 'ATT007'), [7]);
  });
  it('still reports a replacement that writes NaN back (nan=np.nan)', async () => {
    assert.deepEqual(await findingLines(MODULE_MASK.replace('nan=0.0', 'nan=np.nan'), 'ATT007'), [5]);
  });
  it('still reports when only the weights are cleaned, or another mask is', async () => {
    assert.deepEqual(await findingLines(WEIGHTS_CLEANED, 'ATT007'), [7]);
    assert.deepEqual(await findingLines(OTHER_CLEANED, 'ATT007'), [7]);
  });
});
