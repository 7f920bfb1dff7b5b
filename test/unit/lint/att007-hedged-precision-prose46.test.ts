// Session 46, eng-s46a: ATT007, class "a comment that justifies the fill by the setups it avoids trouble in, taken as
// evidence of float16" (s46-classes.md, from eng-s46d: varshagoalla/Attention-Is-All-You-Need `models/Transformer.py`,
// `# Using -1e9 avoids potential NaN issues on some GPUs or mixed precision setups.` on the fill; nothing in the
// repository runs in half precision).
//
// A sentence of prose that says what the code avoids or prevents in half precision, or hedges it ("potential"), names
// the setups it is written to survive, as one offering half precision as an option ("can be used with fp16") does:
// no evidence of what it runs in. A sentence saying the code runs in it is still evidence, and code evidence (an
// importing trainer's autocast) decides whatever the comment says.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attention = (comment: string): string => `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_k = d_model // n_heads
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, mask=None):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            # ${comment}
            scores = scores.masked_fill(mask == 0, -1e9)
        return (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, t, -1)
`;

const HEDGED = 'Using -1e9 avoids potential NaN issues on some GPUs or mixed precision setups.';
const PREVENTS = 'A finite fill prevents NaN rows under mixed precision.';
const STATED = 'This model is trained with mixed precision (fp16).';

const trainer = `import torch
from torch.cuda.amp import GradScaler, autocast

from model import Attention


def train(loader, optimizer):
    model = Attention(512, 8).cuda()
    scaler = GradScaler()
    for x, mask in loader:
        with autocast():
            loss = model(x, mask).pow(2).mean()
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
`;

describe('ATT007: a comment naming the half-precision setups a fill avoids trouble in (session 46)', () => {
  it('is silent when the only mention of half precision says what the fill avoids or prevents', async () => {
    assert.deepEqual(await findingLines(attention(HEDGED), 'ATT007'), []);
    assert.deepEqual(await findingLines(attention(PREVENTS), 'ATT007'), []);
  });

  it('still reports when the comment says the model runs in half precision', async () => {
    assert.deepEqual(await findingLines(attention(STATED), 'ATT007'), [20]);
  });

  it('cross-file: an importing trainer running the model under autocast decides, whatever the comment', async () => {
    const files = { 'model.py': attention(HEDGED), 'train.py': trainer };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), [20]);
  });
});
