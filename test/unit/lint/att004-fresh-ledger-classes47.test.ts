// Session 47 (eng-s47a): two ATT004 false classes of the session's fresh ledger (eng-s47d, /work/wt/s47-classes.md).
//
// 1. One head whose projection keeps the width by value: `d_model = 16`, `d_k = 16` (module constants), `W_q =
//    nn.Linear(d_model, d_k)`, then `/ math.sqrt(d_k)`. The factor equals the projection's input width by value, so the
//    rule called it "the width going into the query projection"; it is the projection's output width too (by name, or
//    by the number a module constant holds): the queries' own feature size, the right scale. With `d_k = 8` and
//    `/ math.sqrt(d_model)` the projection narrows and the input width is still reported.
// 2. The softmax's backward pass written out with the upstream gradient first in the weighted sum: `ds = A * (dA -
//    (dA * A).sum(axis=-1, keepdims=True))` then `ds *= self.scale` (the chain rule through `s = Q @ K^T * scale`). The
//    rule knew `(A * dA).sum(...)` as the softmax's vector-Jacobian product, not the same product written the other way
//    round, and read the chain rule's factor as a scale after softmax (and `ds.T @ Q` as weights summed over the wrong
//    axis, ATT001). The factors of the summed product are read now. A scale on the weights themselves is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ONE_HEAD = (dk: string, factor: string): string => `import math

import torch
import torch.nn as nn

d_model = 16
d_k = ${dk}
W_q = nn.Linear(d_model, d_k, bias=False)
W_k = nn.Linear(d_model, d_k, bias=False)
W_v = nn.Linear(d_model, d_k, bias=False)


def attend(x):
    Q, K, V = W_q(x), W_k(x), W_v(x)
    scores = Q @ K.transpose(0, 1) / math.sqrt(${factor})
    weights = torch.softmax(scores, dim=-1)
    return weights @ V
`;

const MANUAL = (vjp: string, forwardOut = 'self.A @ V'): string => `import numpy as np


class Attention:
    def __init__(self, d_model, n_heads):
        self.d_k = d_model // n_heads
        self.scale = 1.0 / np.sqrt(self.d_k)

    def forward(self, Q, K, V):
        self.Q, self.K, self.V = Q, K, V
        s = Q @ K.transpose(0, 2, 1) * self.scale
        s = s - s.max(axis=-1, keepdims=True)
        e = np.exp(s)
        self.A = e / e.sum(axis=-1, keepdims=True)
        return ${forwardOut}

    def backward(self, dout):
        dA = dout @ self.V.transpose(0, 2, 1)
        dV = self.A.transpose(0, 2, 1) @ dout
        ds = ${vjp}
        ds *= self.scale
        dQ = ds @ self.K
        dK = ds.transpose(0, 2, 1) @ self.Q
        return dQ, dK, dV
`;

describe('ATT004 classes of the session-47 fresh ledger', () => {
  it('is silent on one head whose projection keeps the width by value, and reports the narrowing one', async () => {
    assert.deepEqual(await findingLines(ONE_HEAD('16', 'd_k'), 'ATT004'), []);
    assert.deepEqual(await findingLines(ONE_HEAD('8', 'd_k'), 'ATT004'), []);
    assert.deepEqual(await findingLines(ONE_HEAD('8', 'd_model'), 'ATT004'), [15]);
  });

  it('reads the widths from a config module of the workspace', async () => {
    const CONFIG = (dk: string): string => `d_model = 16\nd_k = ${dk}\n`;
    const MODEL = (factor: string): string =>
      ONE_HEAD('0', factor)
        .replace('d_model = 16\nd_k = 0\n', 'from config import d_k, d_model\n')
        .replace('import torch.nn as nn\n', 'import torch.nn as nn\n');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': CONFIG('16'), 'model.py': MODEL('d_k') }, 'model.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines({ 'config.py': CONFIG('8'), 'model.py': MODEL('d_model') }, 'model.py', 'ATT004'), [14]);
  });

  it('reads the softmax backward pass with the gradient first in the weighted sum', async () => {
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - (dA * self.A).sum(axis=-1, keepdims=True))'), 'ATT004'), []);
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - np.sum(dA * self.A, axis=-1, keepdims=True))'), 'ATT004'), []);
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - (dA * self.A).sum(axis=-1, keepdims=True))'), 'ATT001'), []);
    // The original order, known before.
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - (self.A * dA).sum(axis=-1, keepdims=True))'), 'ATT004'), []);
  });

  it('still reports a scale on the weights, and a product that is no vector-Jacobian product', async () => {
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - (dA * self.A).sum(axis=-1, keepdims=True))', '(self.A * self.scale) @ V'), 'ATT004'), [15]);
    assert.deepEqual(await findingLines(MANUAL('self.A * (dA - dA.sum(axis=-1, keepdims=True))'), 'ATT004'), [21]);
  });

  it('reads the scale a base class of another workspace file sets, beside the backward pass', async () => {
    const BASE = `import numpy as np


class ScaledBase:
    def __init__(self, d_model, n_heads):
        self.d_k = d_model // n_heads
        self.scale = 1.0 / np.sqrt(self.d_k)
`;
    const model = (vjp: string): string =>
      MANUAL(vjp)
        .replace('import numpy as np\n', 'import numpy as np\n\nfrom base import ScaledBase\n')
        .replace(
          'class Attention:\n    def __init__(self, d_model, n_heads):\n        self.d_k = d_model // n_heads\n        self.scale = 1.0 / np.sqrt(self.d_k)\n',
          'class Attention(ScaledBase):\n',
        );
    assert.deepEqual(
      await workspaceFindingLines({ 'base.py': BASE, 'model.py': model('self.A * (dA - (dA * self.A).sum(axis=-1, keepdims=True))') }, 'model.py', 'ATT004'),
      [],
    );
    assert.deepEqual(
      await workspaceFindingLines({ 'base.py': BASE, 'model.py': model('self.A * (dA - dA.sum(axis=-1, keepdims=True))') }, 'model.py', 'ATT004'),
      [20],
    );
  });
});
