// Session 46, eng-s46c (class sent by eng-s46d from a first-contact scan, `/work/wt/s46-classes.md`): ATT002, "a comment
// saying what the code does with a mask's 0 entries read as an additive mask's values". A comment above the fill,
// `# mask: positions with 0 are set to -inf so the softmax gives them no weight`, was read as the parameter's
// description "0 ... -inf", the values of an additive mask (0 kept, -inf masked), so the code's own
// `masked_fill(mask == 0, -inf)` was reported as inverted. A statement that the 0 (or True/1) entries are set to, filled
// with or replaced by -inf (or a large negative number) says which entries are hidden: 0 set to -inf is a keep mask.
// Descriptions of an additive mask's values (`0 kept, -inf masked`) still read as additive.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';
import { maskFromDoc } from '../../../src/lint/analysis/comments';

const DECODER = (comment: string, fill: string): string => `import torch
from torch import nn


class CausalHead(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.qkv = nn.Linear(width, 3 * width)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        logits = q @ k.transpose(-2, -1) / self.width ** 0.5
        if mask is not None:
            ${comment}
            logits = logits.masked_fill(${fill}, float("-inf"))
        return logits.softmax(dim=-1) @ v


class TinyDecoder(nn.Module):
    def __init__(self, vocab, width, depth):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.heads = nn.ModuleList([CausalHead(width) for _ in range(depth)])

    def forward(self, ids, tgt_mask=None):
        h = self.embed(ids)
        for head in self.heads:
            h = h + head(h, tgt_mask)
        return h
`;

describe('ATT002: a comment on what the code does with the 0 entries is no additive mask (session 46)', () => {
  it('reads "0 set to -inf" as a keep mask and "1 filled with -1e9" as an ignore mask', () => {
    assert.deepEqual(maskFromDoc(' positions with 0 are set to -inf so the softmax gives them no weight'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' entries equal to 1 are filled with -1e9'), { polarity: 'ignore' });
    assert.deepEqual(maskFromDoc(' 0 kept, -inf masked'), { additive: true });
  });

  it('is silent on the fill that does what the comment says', async () => {
    const comment = '# mask: positions with 0 are set to -inf so the softmax gives them no weight';
    assert.deepEqual(await findingLines(DECODER(comment, 'mask == 0'), 'ATT002'), []);
  });

  it('reports the fill that contradicts it', async () => {
    const comment = '# mask: positions with 0 are set to -inf so the softmax gives them no weight';
    assert.deepEqual(await findingLines(DECODER(comment, 'mask.bool()'), 'ATT002'), [16]);
  });
});
