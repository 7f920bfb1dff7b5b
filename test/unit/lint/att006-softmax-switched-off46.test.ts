// Session 46, eng-s46a: ATT006, class "a mask multiply on a path whose callers switch the softmax off" (ledger s45,
// rows 50-53: ktransformers' cache-importance helper, in two copies of the file).
//
// A helper takes two switches, a mask mode and `use_softmax`: the scores are multiplied by a 0/1 triangle under
// `if mask_mode == "tril":` and normalised under `if use_softmax:`, then summed. Every call that asks for a triangle
// passes `use_softmax=False` (the raw scores are summed, a masked entry adds 0), and the call that keeps the softmax
// passes `mask_mode=None`. Two facts decide it per call: a softmax in an `if` arm the call cannot take is no softmax
// of its scores, and `None == "tril"` is False (None equals no string). Calls from a file importing the helper's file
// decide as calls of the same file do. A call asking for the triangle with the softmax on is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const scorer = (decode: string): string => `import math

import torch


class BlockScorer:
    def __init__(self, block_size, head_dim):
        self.head_dim = head_dim
        ones = torch.ones(block_size, block_size, dtype=torch.uint8)
        self.lower = torch.tril(ones)

    def score_block(self, query, key, importance, mask_mode=None, use_softmax=True):
        qk = torch.einsum("qd,kd->qk", query, key)
        if mask_mode == "tril":
            qk = qk * self.lower[-qk.size(-2):, -qk.size(-1):]
        if use_softmax:
            qk = torch.softmax(qk / math.sqrt(self.head_dim), dim=-1)
        importance += qk.sum(dim=-2)

    def prefill(self, query, key, importance):
        self.score_block(query, key, importance, mask_mode=None)

    def decode(self, query, key, importance):
${decode}
`;

const helper = `import math

import torch


def block_importance(query, key, causal_mask, mask_mode=None, use_softmax=True):
    scores = torch.einsum("qd,kd->qk", query, key)
    if mask_mode == "causal":
        scores = scores * causal_mask[-scores.size(-2):, -scores.size(-1):]
    if use_softmax:
        scores = torch.softmax(scores / math.sqrt(query.size(-1)), dim=-1)
    return scores.sum(dim=-2)
`;

const cache = (call: string): string => `import torch

from scoring import block_importance


class BlockCache:
    def __init__(self, block_size):
        self.causal = torch.tril(torch.ones(block_size, block_size))
        self.importance = None

    def prefill(self, query, key):
        self.importance = block_importance(query, key, self.causal)

    def decode(self, query, key):
        self.importance += ${call}
`;

describe('ATT006: a mask multiply on a path whose callers switch the softmax off (session 46)', () => {
  it('is silent when every call asking for the triangle passes use_softmax=False', async () => {
    assert.deepEqual(await findingLines(scorer('        self.score_block(query, key, importance, mask_mode="tril", use_softmax=False)'), 'ATT006'), []);
  });

  it('still reports the triangle multiplied into scores a call normalises (use_softmax left at True)', async () => {
    assert.deepEqual(await findingLines(scorer('        self.score_block(query, key, importance, mask_mode="tril")'), 'ATT006'), [15]);
    // One call of two with the softmax on is enough.
    const both =
      '        self.score_block(query, key, importance, mask_mode="tril", use_softmax=False)\n        self.score_block(query, key, importance, mask_mode="tril", use_softmax=True)';
    assert.deepEqual(await findingLines(scorer(both), 'ATT006'), [15]);
  });

  it('reads None == "tril" as False: the call passing mask_mode=None takes no mask arm', async () => {
    // Only the prefill call (mask_mode=None, the softmax on): it takes no mask arm.
    assert.deepEqual(await findingLines(scorer('        pass'), 'ATT006'), []);
    // A string that is not the arm's is likewise no mask: `mask_mode="triu"` with no `triu` arm.
    assert.deepEqual(await findingLines(scorer('        self.score_block(query, key, importance, mask_mode="triu")'), 'ATT006'), []);
  });

  it('with no caller in view, the helper alone is still reported (its switches are no evidence)', async () => {
    assert.deepEqual(await findingLines(helper, 'ATT006'), [9]);
  });

  it('cross-file: the calls of a file importing the helper decide as calls of the same file do', async () => {
    const off = { 'scoring.py': helper, 'cache.py': cache('block_importance(query, key, self.causal, mask_mode="causal", use_softmax=False)') };
    assert.deepEqual(await workspaceFindingLines(off, 'scoring.py', 'ATT006'), []);
    const on = { 'scoring.py': helper, 'cache.py': cache('block_importance(query, key, self.causal, mask_mode="causal")') };
    assert.deepEqual(await workspaceFindingLines(on, 'scoring.py', 'ATT006'), [9]);
  });
});
