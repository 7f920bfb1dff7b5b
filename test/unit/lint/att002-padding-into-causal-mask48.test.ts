// Session 48, eng-s48d2: an ATT002 precision class from the fresh first-contact ledger of language-model code
// (`test/lint-scan/results/2026-12-07-fresh-ledger-s48-d2.md`, row 9: Hugging Face Llama's `_update_causal_mask` as
// transformers 4.38 wrote it, copied into a ring-attention project).
//
// "Padding written into the additive causal mask itself": `causal = triu(ones, 1) * min`, then
// `pad = causal[..., :n].eq(0) * attention_mask.eq(0)` (the causal mask's kept side AND the padded keys) filled into that
// same causal mask, `causal[..., :n] = causal[..., :n].masked_fill(pad, min)`. The fill mask lies within the kept side of
// the triangle, which read as masked_fill reads it would hide the past and show the future, but its receiver already
// holds the future at the minimum: the fill only adds the padded keys to it, and the future stays hidden. The same fill
// into the scores (no causal mask applied to them) shows every future key and is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const DECODER = (forward: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        causal = torch.full((max_len, max_len), fill_value=1)
        self.register_buffer("causal_mask", torch.triu(causal, diagonal=1), persistent=False)

    def forward(self, x, attention_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5
        min_value = torch.finfo(x.dtype).min
        mask = self.causal_mask[None, None, :t, :t].repeat(b, 1, 1, 1).to(x.dtype) * min_value
        padding = mask.eq(0.0) * attention_mask[:, None, None, :].eq(0.0)
${forward}
        w = F.softmax(scores, dim=-1)
        return self.out((w @ v).transpose(1, 2).reshape(b, t, d))
`;

describe('ATT002: padding written into the additive causal mask itself (session 48)', () => {
  it('is silent when the causal mask receives the fill and is then added to the scores', async () => {
    const src = DECODER('        mask = mask.masked_fill(padding, min_value)\n        scores = scores + mask');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('still reports the same fill into scores no causal mask reached: every future key is seen', async () => {
    const src = DECODER('        scores = scores.masked_fill(padding, min_value)');
    assert.deepEqual(await findingLines(src, 'ATT002'), [22]);
  });

  const MASKS = `import torch


def update_causal_mask(causal_buffer, attention_mask, x):
    batch, length = x.shape[:2]
    min_value = torch.finfo(x.dtype).min
    mask = causal_buffer[None, None, :length, :length].repeat(batch, 1, 1, 1).to(x.dtype) * min_value
    n = attention_mask.shape[-1]
    padding = mask[..., :n].eq(0.0) * attention_mask[:, None, None, :].eq(0.0)
    mask[..., :n] = mask[..., :n].masked_fill(padding, min_value)
    return mask


def padded_scores(scores, causal_buffer, attention_mask, x):
    length = x.shape[1]
    min_value = torch.finfo(x.dtype).min
    mask = causal_buffer[None, None, :length, :length].to(x.dtype) * min_value
    padding = mask.eq(0.0) * attention_mask[:, None, None, :].eq(0.0)
    return scores.masked_fill(padding, min_value)
`;
  const MODEL = (line: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F

from llm.masks import padded_scores, update_causal_mask


class Decoder(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("causal_mask", torch.triu(torch.ones(max_len, max_len), diagonal=1), persistent=False)

    def forward(self, x, attention_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5
${line}
        w = F.softmax(scores, dim=-1)
        return (w @ v).transpose(1, 2).reshape(b, t, d)
`;

  it('reads the mask built in another file the same way', async () => {
    const files = (line: string): Record<string, string> => ({ 'llm/masks.py': MASKS, 'llm/model.py': MODEL(line) });
    const added = files('        scores = scores + update_causal_mask(self.causal_mask, attention_mask, x)');
    assert.deepEqual(await workspaceFindingLines(added, 'llm/masks.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(added, 'llm/model.py', 'ATT002'), []);
    const scored = files('        scores = padded_scores(scores, self.causal_mask, attention_mask, x)');
    assert.deepEqual(await workspaceFindingLines(scored, 'llm/masks.py', 'ATT002'), [19]);
  });
});
