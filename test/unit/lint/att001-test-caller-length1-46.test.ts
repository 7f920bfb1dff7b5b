// Session 46, eng-s46b: class "a length-1 key axis that only a test's call makes".
//
// Real code (komalpreet10/pytorch-transformer-from-scratch `src/core/attention.py:13`, workspace mode, sent by
// eng-s46d to /work/wt/s46-classes.md): `scaled_dot_product_attention(q, k, v, mask)` is shape-generic and normalises
// over the key axis (`softmax(q @ k.transpose(-2, -1) / sqrt(d), dim=-1)`); `tests/test_attention.py` calls it with
// `q = torch.randn(1, 1, 1, 8)` as query and key, one key, to check that one key gets weight 1.0. In that context the
// key axis has length 1 and ATT001 reported "every weight is 1.0". A test feeds made-up tensors of whatever shape
// checks what it checks, not the shapes the model runs with: a length-1 axis is no longer read from a context made by
// a test's call (a call from a test module importing the file: `test_*.py`, `*_test.py`, `conftest.py`, a file under
// `test`/`tests`; or a call written in a test function of the file). A length-1 axis the function makes itself
// (`nn.Linear(d, 1)` scores), or one a model file's call makes, is reported as before.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTEND = `import torch


def attend(q, k, v):
    w = torch.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5, dim=-1)
    return w @ v, w
`;

const TEST_MODULE = `import torch

from attention import attend


def test_single_key_gets_all_weight():
    q = torch.randn(1, 1, 1, 4)
    out, w = attend(q, q.clone(), torch.randn(1, 1, 1, 4))
    assert torch.allclose(w, torch.ones_like(w))
`;

/** Additive pooling scores of one unit each (`nn.Linear(d, 1)`): the softmax over that unit axis is the bug. */
const POOL = `import torch
import torch.nn as nn


class Pool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Linear(d, 1)

    def forward(self, h):
        w = torch.softmax(self.score(h), dim=-1)
        return (w * h).sum(1)
`;

describe('eng-s46b ATT001: a length-1 key axis that only a test makes', () => {
  it('natural: a generic attention function called with one key by a test module that imports it: silent', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': ATTEND, 'tests/test_attention.py': TEST_MODULE }, 'attention.py', 'ATT001'), []);
    const flat = TEST_MODULE;
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': ATTEND, 'test_attention.py': flat }, 'attention.py', 'ATT001'), []);
  });
  it('the same call in a test function of the file itself: silent', async () => {
    const inFile = `${ATTEND}

def test_single_key():
    q = torch.randn(1, 1, 1, 4)
    out, w = attend(q, q.clone(), torch.randn(1, 1, 1, 4))
    assert torch.allclose(w, torch.ones_like(w))
`;
    assert.deepEqual(await findingLines(inFile, 'ATT001'), []);
  });
  it('cross-file: a model file (not a test) that calls it with one key makes the axis length 1: reported', async () => {
    const generate = TEST_MODULE.replace('def test_single_key_gets_all_weight():', 'def step():').replace(
      '    assert torch.allclose(w, torch.ones_like(w))\n',
      '    return out\n',
    );
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': ATTEND, 'generate.py': generate }, 'attention.py', 'ATT001'), [5]);
    // The same module called from `generate.py` and from a test: the model file's call still decides.
    assert.deepEqual(
      await workspaceFindingLines({ 'attention.py': ATTEND, 'generate.py': generate, 'tests/test_attention.py': TEST_MODULE }, 'attention.py', 'ATT001'),
      [5],
    );
  });
  it('the bug: scores of one unit made by the module itself are reported, with or without a test calling it', async () => {
    assert.deepEqual(await findingLines(POOL, 'ATT001'), [11]);
    const test = `import torch

from pool import Pool


def test_pool_shape():
    assert Pool(8)(torch.randn(2, 5, 8)).shape == (2, 8)
`;
    assert.deepEqual(await workspaceFindingLines({ 'pool.py': POOL, 'tests/test_pool.py': test }, 'pool.py', 'ATT001'), [11]);
  });
});
