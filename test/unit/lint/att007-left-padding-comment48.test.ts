// Session 48, eng-s48c: class "a comment that mentions left padding is no evidence that the batches are padded on the
// left".
//
// A -inf fill under a causal mask combined with key padding empties a row only when a batch is padded on the left (the
// first queries of a left-padded row see only padded keys); with right padding every query keeps the real keys before
// it. ATT007 reads left padding from the code (`padding_side="left"`, a sequence written right-aligned into a padded
// buffer, padding joined in front) and, until now, from any comment matching "left pad". A comment may deny it
// (`# no left padding: prompts are padded on the right`) or describe another code path, and the weak-source audit of
// session 48 found it decided no true finding of the regression copy, training, corpus or holdout sets, nor of the
// public ledgers (the minimind rows pad on the left in code). The code that pads is the evidence.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTN = (extra: string): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, ids, pad_id):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        allowed = torch.tril(torch.ones(t, t, dtype=torch.bool, device=x.device))
        allowed = allowed[None, None] & (ids != pad_id)[:, None, None, :]
        att = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        att = att.masked_fill(~allowed, float("-inf"))
        return (F.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(b, t, c)
${extra}`;

/** Collation that pads each prompt on the right; the comment denies left padding. */
const COLLATE = (write: string) => `

# Prompts are never left-padded here: the model was trained with right padding.
def collate(prompts, pad_id):
    longest = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), longest), pad_id)
    for row, p in enumerate(prompts):
        ${write} = torch.tensor(p)
    return ids
`;

const SAMPLER = (side: string, comment: string) => `from transformers import AutoTokenizer

from model import CausalSelfAttention

${comment}
tok = AutoTokenizer.from_pretrained("gpt2", padding_side="${side}")
layer = CausalSelfAttention(64, 4)
`;

describe('eng-s48c ATT007: a comment mentioning left padding is no evidence of it', () => {
  it('natural: right padding in code, a comment that says "never left-padded": silent', async () => {
    assert.deepEqual(await findingLines(ATTN(COLLATE('ids[row, : len(p)]')), 'ATT007'), []);
  });
  it('the twin that writes each prompt right-aligned (left padding in code): reported', async () => {
    assert.deepEqual(await findingLines(ATTN(COLLATE('ids[row, longest - len(p):]')), 'ATT007'), [20]);
  });
  it('cross-file: an importing sampler that pads on the left in code is evidence; one that only says so in a comment is not', async () => {
    const left = SAMPLER('left', '');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': ATTN(''), 'sample.py': left }, 'model.py', 'ATT007'), [20]);
    const said = SAMPLER('right', '# batched generation: prompts are left-padded by the server');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': ATTN(''), 'sample.py': said }, 'model.py', 'ATT007'), []);
  });
});
