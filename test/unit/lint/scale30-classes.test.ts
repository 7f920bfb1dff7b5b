// Session 30 (scale30): recall classes of ATT004 (wrong scale) and ATT003 (missing scale), each with its correct form
// and a cross-file pair where the evidence sits in another file:
//  1. A scale applied between a pairwise product and its reduction (`(q[..., :, None, :] * k[..., None, :, :] * s).sum(-1)`,
//     `tf.reduce_sum(q_ * k_ * scale, -1)`): the sum is linear, so the factor is a factor on the scores it forms, and
//     is judged as one (a dimension, one over it, the model width, a second 1/sqrt(d), a literal width); the scalings
//     of q or k that reach such scores are judged too. `tf.reduce_sum(tf.multiply(q, k), -1)` of expanded heads.
//  2. A 1/sqrt(d) applied twice in one method: one finding per path, at its second factor (the rule page), so two
//     branches that each scale the scores again after one scaling of q are two findings; three factors on one path,
//     one.
//  3. A Keras/TF multi-head attention with `Dense(d_model)` projections split into heads and a scale `sqrt(self.d_k)`
//     whose constructor parameter every construction (in the file, or in a file importing it) binds to the same value
//     as d_model, with a head count above 1: the model width on per-head scores. Silent when d_k is another value, is
//     not shown, or when one head is built.
//  4. Correct forms that must stay silent: a scale read from a config object (`config.attn_scale or head_dim ** -0.5`),
//     and a config `head_dim` that differs from `hidden_size // heads` (Gemma-style, `query_pre_attn_scalar`).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const CASES: readonly (readonly [id: string, cls: string, what: string, expect: Readonly<Record<string, readonly number[]>>, code: string])[] = [
  [
    'p1_ok',
    '1',
    'a 1/sqrt(head_dim) on the pairwise product before .sum(-1)',
    { ATT003: [], ATT004: [] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] * self.scale).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_times_dim',
    '1',
    'the pairwise product multiplied by head_dim before the sum',
    { ATT003: [], ATT004: [16] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] * self.head_dim).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_div_dim',
    '1',
    'the pairwise product divided by head_dim before the sum',
    { ATT003: [], ATT004: [16] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] / self.head_dim).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_missing',
    '1',
    'no scale on the pairwise product',
    { ATT003: [17], ATT004: [] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :]).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_model',
    '1',
    'C ** -0.5 (the projection input width) on per-head pairwise scores',
    { ATT003: [], ATT004: [16] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] * C ** -0.5).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_twice',
    '1',
    'q scaled, then the pairwise product scaled again',
    { ATT003: [], ATT004: [17] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        s = (q[..., :, None, :] * k[..., None, :, :] * self.scale).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'p1_q_div_dim',
    '1',
    'q divided by head_dim before a pairwise product',
    { ATT003: [], ATT004: [16] },
    `import torch
import torch.nn as nn


class PairAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q / self.head_dim
        s = (q[..., :, None, :] * k[..., None, :, :]).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'tf1_ok',
    '1',
    'tf.reduce_sum(q_ * k_ * depth ** -0.5, -1)',
    { ATT003: [], ATT004: [] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = self.split(self.wq(x), b)
        k = self.split(self.wk(x), b)
        v = self.split(self.wv(x), b)
        q_ = tf.expand_dims(q, 3)
        k_ = tf.expand_dims(k, 2)
        logits = tf.reduce_sum(q_ * k_ * (self.depth ** -0.5), -1)
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'tf1_one_over_dim',
    '1',
    'tf.reduce_sum(q_ * k_ * (1.0 / depth), -1)',
    { ATT003: [], ATT004: [24] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = self.split(self.wq(x), b)
        k = self.split(self.wk(x), b)
        v = self.split(self.wv(x), b)
        q_ = tf.expand_dims(q, 3)
        k_ = tf.expand_dims(k, 2)
        logits = tf.reduce_sum(q_ * k_ * (1.0 / self.depth), -1)
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'tf1_missing',
    '1',
    'tf.reduce_sum(q_ * k_, -1) unscaled',
    { ATT003: [25], ATT004: [] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = self.split(self.wq(x), b)
        k = self.split(self.wk(x), b)
        v = self.split(self.wv(x), b)
        q_ = tf.expand_dims(q, 3)
        k_ = tf.expand_dims(k, 2)
        logits = tf.reduce_sum(q_ * k_, -1)
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'tf1_multiply_div_dim',
    '1',
    'tf.reduce_sum(tf.multiply(q, k), -1) / depth after a head split and expand_dims',
    { ATT003: [], ATT004: [22] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = tf.expand_dims(self.split(self.wq(x), b), 3)
        k = tf.expand_dims(self.split(self.wk(x), b), 2)
        v = self.split(self.wv(x), b)
        logits = tf.reduce_sum(tf.multiply(q, k), -1) / self.depth
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'tf1_multiply_ok',
    '1',
    'tf.reduce_sum(tf.multiply(q, k), -1) / sqrt(depth)',
    { ATT003: [], ATT004: [] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = tf.expand_dims(self.split(self.wq(x), b), 3)
        k = tf.expand_dims(self.split(self.wk(x), b), 2)
        v = self.split(self.wv(x), b)
        logits = tf.reduce_sum(tf.multiply(q, k), -1) / tf.math.sqrt(float(self.depth))
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'tf1_multiply_missing',
    '1',
    'tf.reduce_sum(tf.multiply(q, k), -1) unscaled',
    { ATT003: [23], ATT004: [] },
    `import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        x = tf.reshape(x, (b, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x):
        b = tf.shape(x)[0]
        q = tf.expand_dims(self.split(self.wq(x), b), 3)
        k = tf.expand_dims(self.split(self.wk(x), b), 2)
        v = self.split(self.wv(x), b)
        logits = tf.reduce_sum(tf.multiply(q, k), -1)
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
`,
  ],
  [
    'p1_literal',
    '1',
    'the pairwise product divided by 64, the stated head width',
    { ATT003: [], ATT004: [15] },
    `import torch
import torch.nn as nn

from config import SCALE


class PairAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * 512)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] / 64).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'c2_q_then_scores',
    '2',
    'q * scale, then scores * scale',
    { ATT004: [23] },
    `import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        q = q * self.scaling
        scores = q @ k.transpose(-2, -1)
        scores = scores * self.scaling
        w = scores.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'c2_two_divisions',
    '2',
    'scores / self.scaling at two places of one forward',
    { ATT004: [24] },
    `import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / self.scaling
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        scores = scores / self.scaling
        w = scores.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'c2_three',
    '2',
    'q and the scores divided by sqrt(d) three times on one path: one finding, at the last',
    { ATT004: [25] },
    `import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        q = q / self.scaling
        scores = q @ k.transpose(-2, -1) / self.scaling
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        scores = scores / self.scaling
        w = scores.softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'c2_branches',
    '2',
    'q scaled, then each of two branches scales the scores again: two findings',
    { ATT004: [18, 20] },
    `import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, bias=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        if bias is None:
            attn = (q @ k.transpose(-2, -1)) * self.scale
        else:
            attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        return attn @ v
`,
  ],
  [
    'c3_names',
    '3',
    'Dense(d_model) split into h heads, d_k = 512 = d_model by module constants',
    { ATT004: [23] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 8
d_k = 512
layer = MultiHeadAttention(h, d_k, d_model)
`,
  ],
  [
    'c3_head',
    '3',
    'the same with d_k = 64',
    { ATT004: [] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 8
d_k = 64
layer = MultiHeadAttention(h, d_k, d_model)
`,
  ],
  [
    'c3_alias',
    '3',
    'd_k = d_model at module level',
    { ATT004: [23] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 8
d_k = d_model
layer = MultiHeadAttention(h, d_k, d_model)
`,
  ],
  [
    'c3_divided',
    '3',
    'd_k = d_model // h',
    { ATT004: [] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 8
d_k = d_model // h
layer = MultiHeadAttention(h, d_k, d_model)
`,
  ],
  [
    'c3_literals',
    '3',
    'MultiHeadAttention(8, 512, 512)',
    { ATT004: [23] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 8
d_k = 512
layer = MultiHeadAttention(8, 512, 512)
`,
  ],
  [
    'c3_one_head',
    '3',
    'h = 1: one head is as wide as the model',
    { ATT004: [] },
    `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)


d_model = 512
h = 1
d_k = 512
layer = MultiHeadAttention(h, d_k, d_model)
`,
  ],
  [
    'c4_config_or',
    '4',
    'self.scale = config.attn_scale or head_dim ** -0.5',
    { ATT003: [], ATT004: [] },
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scale = config.attn_scale or self.head_dim ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        w = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        return w @ v
`,
  ],
  [
    'c4_gemma_scalar',
    '4',
    'config head_dim 256 != 3072 // 16, query_pre_attn_scalar ** -0.5 folded into q',
    { ATT003: [], ATT004: [] },
    `from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    hidden_size: int = 3072
    num_attention_heads: int = 16
    head_dim: int = 256
    query_pre_attn_scalar: int = 256


class Attention(nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        q = q * self.scaling
        w = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return w @ v
`,
  ],
  [
    'c4_gemma_head_dim',
    '4',
    'config head_dim 256 != 3072 // 16, head_dim ** -0.5',
    { ATT003: [], ATT004: [] },
    `from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    hidden_size: int = 3072
    num_attention_heads: int = 16
    head_dim: int = 256
    query_pre_attn_scalar: int = 256


class Attention(nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        q = q * self.scaling
        w = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return w @ v
`,
  ],
  [
    'c4_gemma_kernel',
    '4',
    'pre-scaled q handed to SDPA with scale=1.0',
    { ATT003: [], ATT004: [] },
    `from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    hidden_size: int = 3072
    num_attention_heads: int = 16
    head_dim: int = 256
    query_pre_attn_scalar: int = 256


class Attention(nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        q = q * self.scaling
        w = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0)
        return w
        return w @ v
`,
  ],
];
const C1_X = `import torch
import torch.nn as nn

from config import SCALE


class PairAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * 512)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        s = (q[..., :, None, :] * k[..., None, :, :] * SCALE).sum(-1)
        w = s.softmax(dim=-1)
        return w @ v
`;

const C2_CFG = `import torch
import torch.nn as nn

from config import ModelConfig


class Attn(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.heads = cfg.n_heads
        self.scale = cfg.head_dim ** -0.5
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)

    def forward(self, x, bias=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        if bias is None:
            attn = (q @ k.transpose(-2, -1)) * self.scale
        else:
            attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        return attn @ v
`;

const C3_ATTN = `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)
        self.W_o = Dense(d_model)

    def reshape_tensor(self, x, heads):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.reshape_tensor(self.W_q(queries), self.heads)
        k = self.reshape_tensor(self.W_k(keys), self.heads)
        v = self.reshape_tensor(self.W_v(values), self.heads)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        weights = tf.nn.softmax(scores)
        out = tf.matmul(weights, v)
        return self.W_o(out)
`;

const C4_X = `import torch
import torch.nn as nn

from config import GemmaConfig


class Attention(nn.Module):
    def __init__(self, config: GemmaConfig):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(2, 3)) * self.scaling
        w = torch.softmax(scores, dim=-1)
        return torch.matmul(w, v)
`;

const GEMMA_CONFIG = `from dataclasses import dataclass


@dataclass
class GemmaConfig:
    hidden_size: int = 3072
    num_attention_heads: int = 16
    head_dim: int = 256
    query_pre_attn_scalar: int = 256
`;

const MODEL_CONFIG = `from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 512
    n_heads: int = 8
    head_dim: int = 64
`;

const builds = (args: string): string => `from attention import MultiHeadAttention\n\n\ndef build():\n    return MultiHeadAttention(${args})\n`;

describe('scale30: ATT004/ATT003 recall classes (pairwise scores, twice per path, caller-bound widths, config scales)', () => {
  for (const [id, cls, what, expect, code] of CASES) {
    for (const [rule, lines] of Object.entries(expect)) {
      it(`class ${cls}, ${id}: ${what} (${rule} ${lines.length === 0 ? 'silent' : `at ${lines.join(', ')}`})`, async () => {
        assert.deepEqual(await findingLines(code, rule), lines);
      });
    }
  }
  it('class 1 cross-file: a scale imported from a config module on the pairwise product, one over the stated width or its root', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'config.py': 'SCALE = 1.0 / 64\n', 'attn.py': C1_X }, 'attn.py', 'ATT004'), [15]);
    assert.deepEqual(await workspaceFindingLines({ 'config.py': 'SCALE = 1.0 / 8\n', 'attn.py': C1_X }, 'attn.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines({ 'config.py': 'SCALE = 1.0 / 8\n', 'attn.py': C1_X }, 'attn.py', 'ATT003'), []);
  });
  it('class 2 cross-file: the head width from a config dataclass of another file, q scaled and both branches scaling again', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'config.py': MODEL_CONFIG, 'attn.py': C2_CFG }, 'attn.py', 'ATT004'), [19, 21]);
    const fixed = C2_CFG.replace('        q = q * self.scale\n', '');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': MODEL_CONFIG, 'attn.py': fixed }, 'attn.py', 'ATT004'), []);
  });
  it('class 3 cross-file: the construction in an importing file binds d_k to d_model (positional or keywords); d_k = 64 is silent', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN, 'model.py': builds('8, 512, 512') }, 'attention.py', 'ATT004'), [23]);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN, 'model.py': builds('h=8, d_k=512, d_model=512') }, 'attention.py', 'ATT004'), [23]);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN, 'model.py': builds('8, 64, 512') }, 'attention.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN, 'model.py': builds('1, 512, 512') }, 'attention.py', 'ATT004'), []);
    // A name the importing file binds is not read as a number there: no value shown, silent.
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN, 'model.py': `D = 512\n${builds('8, D, 512')}` }, 'attention.py', 'ATT004'), []);
    // No construction at all: silent.
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': C3_ATTN }, 'attention.py', 'ATT004'), []);
  });
  it('class 4 cross-file: a Gemma-style config of another file (head_dim != hidden_size // heads) with its own scalar is silent', async () => {
    for (const rule of ['ATT003', 'ATT004']) assert.deepEqual(await workspaceFindingLines({ 'config.py': GEMMA_CONFIG, 'attn.py': C4_X }, 'attn.py', rule), []);
    const headDim = C4_X.replace('config.query_pre_attn_scalar ** -0.5', 'self.head_dim ** -0.5');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': GEMMA_CONFIG, 'attn.py': headDim }, 'attn.py', 'ATT004'), []);
    // Its buggy twin: the model width (config.hidden_size) on the per-head scores.
    const modelWidth = C4_X.replace('config.query_pre_attn_scalar ** -0.5', 'config.hidden_size ** -0.5');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': GEMMA_CONFIG, 'attn.py': modelWidth }, 'attn.py', 'ATT004'), [22]);
  });
});
