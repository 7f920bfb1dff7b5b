// Session 36, reg-fill-s36: ATT007, class "prose that says a step guards against half precision".
//
// A comment next to an upcast softmax (`# softmax in float32 for fp16 stability, then back to the input dtype`),
// OpenAI's "more stable in fp16 than dividing afterwards", or "-1e9 would overflow in fp16" says the code is written
// to cope with half precision, as "fp16 compatibility" does: it supports half precision and does not say this file
// runs in it. Only prose that says how the code runs (`--fp16`, "trained in mixed precision") or code (`.half()`,
// autocast, in the file or a file importing it) makes -1e9 a float16 overflow.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attention = (comment: string): string => `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask=None):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(mask == 1, float("-1e9"))
        ${comment}
        w = torch.softmax(scores.float(), dim=-1).to(x.dtype)
        return (w @ v).transpose(1, 2).reshape(b, s, -1)
`;
const FILL = 18;

describe('ATT007: prose guarding against fp16 is no evidence the file runs in it (session 36)', () => {
  for (const comment of [
    '# softmax in float32 for fp16 stability, then back to the input dtype',
    '# upcast: more stable in fp16 than normalising in the input dtype',
    '# float32 here, since exp would overflow in fp16',
    '# fp16-safe: the softmax runs in float32',
  ])
    it(`is silent with "${comment}"`, async () => {
      assert.deepEqual(await findingLines(attention(comment), 'ATT007'), []);
    });

  it('still reports with prose that says the file runs in half precision', async () => {
    assert.deepEqual(await findingLines(attention('# this model is trained with --fp16'), 'ATT007'), [FILL]);
    assert.deepEqual(await findingLines(attention('# for fp16 stability; the model runs in mixed precision'), 'ATT007'), [FILL]);
  });

  it('still reports when a file importing it runs it under autocast, whatever the comment', async () => {
    const train = `import torch

from .attention import Attention


def train(x):
    model = Attention(64, 4).cuda()
    with torch.autocast("cuda"):
        return model(x).sum()
`;
    const files = { 'pkg/__init__.py': '', 'pkg/attention.py': attention('# softmax in float32 for fp16 stability'), 'pkg/train.py': train };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/attention.py', 'ATT007'), [FILL]);
  });
});
