// Session 30, precscan10a: ATT007/ATT002, class "a triangular mask edited by index with a constant".
//
// Knowledge-tracing attention lets query t see only the interactions before it: a strict-past mask
// (`tril(diagonal=-1)` kept, or `triu(diagonal=0)` hidden) whose first row would have no key at all. Code that knows
// it gives that row its own key back by index (`allowed[0, 0] = True`, `hide[0, 0] = False`) before filling with
// -inf. After such a write the mask is no longer the triangle it was built as, so which rows it empties is not known
// from its construction: no NaN claim. So is a diagonal rewritten in place (`hide.fill_diagonal_(False)`). The write keeps the mask's polarity (ATT002 still reads a keep mask passed
// where True means masked), and an index write that builds an additive mask (`bias[bias == 1] = -inf`) is unchanged.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const whereKeep = (edit: string): string => `import torch


def strict_past(q, k, v):
    L = q.size(-2)
    allowed = torch.ones(L, L, dtype=torch.bool, device=q.device).tril(diagonal=-1)
    ${edit}
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = torch.where(allowed, s, torch.full_like(s, float("-inf")))
    return s.softmax(-1) @ v
`;

const fillHide = (edit: string): string => `import torch
import torch.nn.functional as F


def strict_past(q, k, v):
    L = q.size(-2)
    hide = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=0)
    ${edit}
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(hide, float("-inf"))
    return F.softmax(s, dim=-1) @ v
`;

describe('lint: a triangular mask edited by index with a constant (ATT007, ATT002)', () => {
  it('a strict-past keep mask whose first row gets its own key back: silent; unedited, the NaN row is reported', async () => {
    assert.deepEqual(await findingLines(whereKeep('allowed[0, 0] = True'), 'ATT007'), []);
    assert.deepEqual(await findingLines(whereKeep('pass'), 'ATT007'), [9]);
  });
  it('the hide-mask form (`triu(diagonal=0)`, `hide[0, 0] = False`) reads the same way', async () => {
    assert.deepEqual(await findingLines(fillHide('hide[0, 0] = False'), 'ATT007'), []);
    assert.deepEqual(await findingLines(fillHide('pass'), 'ATT007'), [10]);
  });
  it('a diagonal rewritten in place (`hide.fill_diagonal_(False)` on `triu()`) reads the same way', async () => {
    const diag = (edit: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v):
    L = q.size(-2)
    hide = torch.ones(L, L, dtype=torch.bool).triu()
    ${edit}
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(hide, float("-inf"))
    return F.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(diag('hide.fill_diagonal_(False)'), 'ATT007'), []);
    assert.deepEqual(await findingLines(diag('pass'), 'ATT007'), [10]);
  });
  it('the edit keeps the polarity: a keep mask passed as attn_mask is still reported, its negation is not', async () => {
    const mha = (passed: string): string => `import numpy as np
import torch
from torch import nn


class SAKT(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h)

    def forward(self, q, kv):
        L = q.size(0)
        keep = torch.tril(torch.ones(L, L), diagonal=-1).bool()
        keep[0, 0] = True
        return self.mha(q, kv, kv, attn_mask=${passed})[0]
`;
    assert.deepEqual(await findingLines(mha('~keep'), 'ATT002'), []);
    assert.deepEqual(await findingLines(mha('keep'), 'ATT002'), [15]);
  });
  it('an additive mask built by writing -inf where the triangle is (`bias[bias == 1] = -inf`) is read as before', async () => {
    const additive = (diag: string): string => `import torch
import torch.nn.functional as F


def causal_bias(L):
    bias = torch.triu(torch.ones(L, L)${diag})
    bias[bias == 1] = float("-inf")
    return bias


def attend(q, k, v):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + causal_bias(q.size(-2))
    return F.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(additive(', diagonal=1'), 'ATT007'), []);
    assert.deepEqual((await findingLines(additive(''), 'ATT007')).length, 1);
  });
  it('cross-file: the edited helper in masks.py is silent at the fill in attn.py; the unedited one is reported', async () => {
    const masks = (edit: string): string => `import torch


def strict_past_mask(L):
    allowed = torch.ones(L, L, dtype=torch.bool).tril(diagonal=-1)
    ${edit}
    return allowed
`;
    const attn = `import torch
from masks import strict_past_mask


def attend(q, k, v):
    allowed = strict_past_mask(q.size(-2))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~allowed, float("-inf"))
    return s.softmax(-1) @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks('allowed[0, 0] = True'), 'attn.py': attn }, 'attn.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks('pass'), 'attn.py': attn }, 'attn.py', 'ATT007'), [8]);
  });
});
