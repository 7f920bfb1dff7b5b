// Session 43 (eng-cut-s43a): queries divided by a value whose meaning the code does not show.
//
// Class: a module cut out of its file (a subclass whose base class sets the scale lives elsewhere) divides its queries
// by an attribute it never sets, `global_q /= self.s_d_k`, before a helper method forms the scores. ATT003 read the
// division as nothing (the queries went on unscaled) and reported the helper's softmax; multiplying by such a value
// (`q * gamma`) was already an unknown step. A division of q or k by a value of unknown meaning is now an unknown
// step too: whether it is 1/sqrt(d) is not shown, so it is no evidence of a missing scale. Queries that are not
// divided at all are still reported, alone and beside a base class in another file.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SUBCLASS = (divide: string): string => `import torch
import torch.nn as nn
from .attention import RelPositionAttention


class LongformerAttention(RelPositionAttention):
    def __init__(self, n_head, n_feat, dropout_rate):
        super().__init__(n_head, n_feat, dropout_rate)
        self.global_q = nn.Linear(n_feat, n_feat)
        self.global_k = nn.Linear(n_feat, n_feat)
        self.global_v = nn.Linear(n_feat, n_feat)

    def forward(self, query, key, value):
        n_batch = query.size(0)
        global_q = self.global_q(query).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        global_k = self.global_k(key).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        global_v = self.global_v(value).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        ${divide}
        return self._global_attention(global_q, global_k, global_v)

    def _global_attention(self, query, key, value):
        scores = torch.matmul(query, key.transpose(-2, -1))
        probs = torch.softmax(scores, dim=-1)
        return torch.matmul(probs, value)
`;

const BASE = `import math
import torch.nn as nn


class RelPositionAttention(nn.Module):
    def __init__(self, n_head, n_feat, dropout_rate):
        super().__init__()
        self.h = n_head
        self.d_k = n_feat // n_head
        self.s_d_k = math.sqrt(self.d_k)
        self.dropout = nn.Dropout(dropout_rate)
`;

describe('cut43a: queries divided by a value of unknown meaning (ATT003)', () => {
  for (const divide of ['global_q /= self.s_d_k', 'global_q = global_q / self.s_d_k', 'global_k = global_k / self.norm_k'])
    it(`is silent on \`${divide}\` with the base class out of view`, async () => {
      assert.deepEqual(await findingLines(SUBCLASS(divide), 'ATT003'), []);
      assert.deepEqual(await findingLines(SUBCLASS(divide), 'ATT004'), []);
    });
  it('still reports the queries when nothing divides them (the bug)', async () => {
    assert.deepEqual(await findingLines(SUBCLASS('pass'), 'ATT003'), [23]);
  });
  it('is silent with the base class in another workspace file, and still reports the undivided queries there', async () => {
    const files = (divide: string) => ({ 'models/attention.py': BASE, 'models/longformer.py': SUBCLASS(divide) });
    assert.deepEqual(await workspaceFindingLines(files('global_q /= self.s_d_k'), 'models/longformer.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines(files('pass'), 'models/longformer.py', 'ATT003'), [23]);
  });
});
