// Session 48, eng-s48c: class "a softmax without dim on scores of a rank the code does not show is no evidence".
//
// PyTorch's legacy rule for a softmax without `dim` (`_get_softmax_dim`) picks dim 0 for 0-, 1- and 3-D input and
// dim 1 otherwise: for one example's 2-D (T, S) scores that is the last axis, the key axis, and for 1-D scores the only
// axis. Only a rank the code shows (3-D: the batch; 4-D: the heads) makes the implicit axis wrong. ATT001 reported
// the implicit dim on scores of unknown rank as "never the key axis of batched scores", a batch assumed without a shape
// op (the weak-source audit of session 48: it decided no true finding of the regression copy, training, corpus or
// holdout sets, nor of the public ledgers; the metamorphic runs showed it turning the corpus's clean 2-D tutorial
// softmax into a false finding once a rename hid its rank). Scores whose rank the code shows are still reported, in
// the file or in the context an importing file's call gives a helper.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** Scores of q and k passed in, rank not shown anywhere in the file. */
const HELPER = `import torch.nn.functional as F


def attend(q, k, v):
    scores = q @ k.transpose(-2, -1)
    weights = F.softmax(scores)
    return weights @ v
`;

/** The same softmax on batched scores the code shapes itself: 3-D through bmm, dim 0 is the batch. */
const BATCHED = `import torch
import torch.nn.functional as F


def attend(q, k, v):
    scores = torch.bmm(q, k.transpose(1, 2))
    weights = F.softmax(scores)
    return torch.bmm(weights, v)
`;

/** A model file splitting heads (4-D q and k) and calling the helper of attention.py. */
const MODEL = `import torch.nn as nn

from attention import attend


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        return attend(q, k, v)
`;

describe('eng-s48c ATT001: a softmax without dim on scores of unknown rank', () => {
  it('natural: a helper normalising scores whose rank nothing shows, with no dim: silent', async () => {
    assert.deepEqual(await findingLines(HELPER, 'ATT001'), []);
  });
  it('the twin whose rank the code shows (3-D through bmm): reported; with dim=-1: silent', async () => {
    assert.deepEqual(await findingLines(BATCHED, 'ATT001'), [7]);
    assert.deepEqual(await findingLines(BATCHED.replace('F.softmax(scores)', 'F.softmax(scores, dim=-1)'), 'ATT001'), []);
  });
  it('cross-file: an importing model passes 4-D heads-split q and k: the helper is reported in that context', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER, 'model.py': MODEL }, 'attention.py', 'ATT001'), [6]);
    // The model passing 2-D (T, d) tensors of one example: the implicit axis is the key axis there.
    const single = MODEL.replace(/ {8}q = q\.view[^\n]*\n {8}k = k\.view[^\n]*\n {8}v = v\.view[^\n]*\n/, '        q, k, v = q[0], k[0], v[0]\n');
    assert.notEqual(single, MODEL);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER, 'model.py': single }, 'attention.py', 'ATT001'), []);
  });
});

// The same class for a softmax over every element (`scipy.special.softmax` without an axis, `e / e.sum()`): over every
// element of one query's scores (a vector) is over the keys; only a rank the code shows (a matrix of queries) makes it
// wrong. It decided no true finding of the readable sets or the public ledgers either.

/** A NumPy attention helper: its inputs' rank is not shown, and one query is as likely as many. */
const NP_HELPER = `import numpy as np


def attend(q, K, V):
    scores = q @ K.T / np.sqrt(K.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ V
`;

const NP_CALLER = `import numpy as np

from attention import attend

K = np.random.randn(6, 8)
V = np.random.randn(6, 8)
Q = np.random.randn(4, 8)
out = attend(Q, K, V)
`;

describe('eng-s48c ATT001: a softmax over every element of scores of unknown rank', () => {
  it('natural: a NumPy helper normalising q @ K.T of unknown rank over every element: silent', async () => {
    assert.deepEqual(await findingLines(NP_HELPER, 'ATT001'), []);
  });
  it('the twin whose queries the code shapes as a matrix: reported; normalised per row: silent', async () => {
    const matrix = NP_HELPER.replace('def attend(q, K, V):\n', 'def attend(x, y, V, d):\n    q = x.reshape(-1, d)\n    K = y.reshape(-1, d)\n');
    assert.deepEqual(await findingLines(matrix, 'ATT001'), [9]);
    assert.deepEqual(await findingLines(matrix.replace('e / e.sum()', 'e / e.sum(axis=-1, keepdims=True)'), 'ATT001'), []);
  });
  it('cross-file: an importing script passing a matrix of queries makes the helper wrong there; one query vector does not', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': NP_HELPER, 'run.py': NP_CALLER }, 'attention.py', 'ATT001'), [7]);
    const one = NP_CALLER.replace('Q = np.random.randn(4, 8)', 'Q = np.random.randn(8)');
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': NP_HELPER, 'run.py': one }, 'attention.py', 'ATT001'), []);
  });
});
