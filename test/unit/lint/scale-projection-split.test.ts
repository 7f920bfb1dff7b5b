// Class learnt from the training set (test/lint-train/d, t10d-01): Keras/TF multi-head layers that project q and k
// with `Dense(d_k)`, split that width into heads afterwards (`tf.reshape(x, (B, T, heads, -1))` or a last size
// `d_k // heads`) and scale the per-head scores by sqrt(d_k): d_k is then the width of all heads together, whatever
// its name says. Decided from the code (the projection's width and the split that follows it), in the file or across
// files (the caller passes `self.d_k` and the split q, k to a dot-product layer of another module). Silent where the
// split is not visible, where the projection is as wide as one head, or where the scale is each head's width.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (proj: string, split: string, scale: string): string => `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHead(Layer):
    def __init__(self, heads, d_k, d_model):
        super().__init__()
        self.heads = heads
        self.d_k = d_k
        self.wq = Dense(${proj})
        self.wk = Dense(${proj})
        self.wv = Dense(${proj})
        self.wo = Dense(d_model)

    def split(self, x):
        x = tf.reshape(x, (tf.shape(x)[0], -1, ${split}))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.split(self.wq(queries))
        k = self.split(self.wk(keys))
        v = self.split(self.wv(values))
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(${scale}, tf.float32))
        weights = tf.nn.softmax(scores, axis=-1)
        return self.wo(tf.matmul(weights, v))
`;

const DOT = `import tensorflow as tf
from tensorflow.keras.layers import Layer


class DotAttention(Layer):
    def call(self, queries, keys, values, d_k):
        scores = tf.matmul(queries, keys, transpose_b=True) / tf.math.sqrt(tf.cast(d_k, tf.float32))
        return tf.matmul(tf.nn.softmax(scores, axis=-1), values)
`;

const CALLER = (proj: string, split: string, width: string): string => `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer

from dot import DotAttention


class MultiHead(Layer):
    def __init__(self, heads, d_k, d_model):
        super().__init__()
        self.attend = DotAttention()
        self.heads = heads
        self.d_k = d_k
        self.wq = Dense(${proj})
        self.wk = Dense(${proj})
        self.wv = Dense(${proj})
        self.wo = Dense(d_model)

    def split(self, x):
        x = tf.reshape(x, (tf.shape(x)[0], -1, ${split}))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.split(self.wq(queries))
        k = self.split(self.wk(keys))
        v = self.split(self.wv(values))
        return self.wo(self.attend(q, k, v, ${width}))
`;

describe('ATT004: a projection width split into heads afterwards, used as the scale', () => {
  it('reports sqrt(d_k) when Dense(d_k) is split into heads with -1', async () => {
    assert.deepEqual(await findingLines(LAYER('d_k', 'self.heads, -1', 'self.d_k'), 'ATT004'), [23]);
  });
  it('reports it when the split writes the last size as d_k // heads', async () => {
    assert.deepEqual(await findingLines(LAYER('d_k', 'self.heads, self.d_k // self.heads', 'self.d_k'), 'ATT004'), [23]);
  });
  it('stays silent for the fixed form: the scale is each head width', async () => {
    assert.deepEqual(await findingLines(LAYER('d_k', 'self.heads, -1', 'self.d_k // self.heads'), 'ATT004'), []);
  });
  it('stays silent when the projection is heads times d_k and each head is d_k wide', async () => {
    assert.deepEqual(await findingLines(LAYER('self.heads * d_k', 'self.heads, self.d_k', 'self.d_k'), 'ATT004'), []);
  });
  it('stays silent when the heads are not split from the projection (one head)', async () => {
    assert.deepEqual(await findingLines(LAYER('d_k', 'self.d_k', 'self.d_k').replace('return tf.transpose(x, perm=(0, 2, 1, 3))', 'return x'), 'ATT004'), []);
  });
  it('reads PyTorch the same way: nn.Linear(d_model, d_k) viewed as (B, T, h, -1), scaled by sqrt(self.d_k)', async () => {
    const torchLayer = (out: string): string => `import math
import torch.nn as nn


class MHA(nn.Module):
    def __init__(self, d_model, d_k, n_heads):
        super().__init__()
        self.h = n_heads
        self.d_k = d_k
        self.q = nn.Linear(d_model, ${out})
        self.k = nn.Linear(d_model, ${out})
        self.v = nn.Linear(d_model, ${out})

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, -1).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, -1).transpose(1, 2)
        att = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        return att.softmax(-1) @ v
`;
    assert.deepEqual(await findingLines(torchLayer('d_k'), 'ATT004'), [19]);
    assert.deepEqual(await findingLines(torchLayer('d_k * n_heads'), 'ATT004'), []);
  });
  it('reports across files: the caller passes self.d_k and q, k split from Dense(d_k)', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'dot.py': DOT, 'mha.py': CALLER('d_k', 'self.heads, -1', 'self.d_k') }, 'dot.py', 'ATT004'), [7]);
  });
  it('stays silent across files when the caller passes the per-head width', async () => {
    const files = { 'dot.py': DOT, 'mha.py': CALLER('d_k', 'self.heads, -1', 'self.d_k // self.heads') };
    assert.deepEqual(await workspaceFindingLines(files, 'dot.py', 'ATT004'), []);
  });
  it('stays silent across files when no importer shows the split', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'dot.py': DOT }, 'dot.py', 'ATT004'), []);
  });
});
