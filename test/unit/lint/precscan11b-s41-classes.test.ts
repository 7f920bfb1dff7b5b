// Session 41 (eng-prec-s41b, precscan11b): classes of false findings from a precision scan of real repositories.
//
// 1. ATT007, apex amp at optimisation level "O0": `amp.initialize(model, optimizer, opt_level="O0")` is apex's pure
//    float32 mode (O1/O2 mixed, O3 float16), and its `amp.scale_loss` then scales by 1. A trajectory-prediction
//    trainer (TNT/VectorNet style) wraps its model so for multi-GPU runs; the model's masked softmax fills with -1e12,
//    which is right in float32. The apex calls were read as "this file runs in half precision", and the model file it
//    imports got a float16 overflow finding. Code whose every `opt_level` is the literal "O0" no longer counts its apex
//    calls as half precision; a level written elsewhere (`opt_level=args.opt_level`) or a mixed one ("O1") still does.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// VectorNet's global graph: scores (B, N, N), a valid-length mask filled with -1e12, softmax, zeroed padded rows.
const MODEL = `import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.q = nn.Linear(width, width)
        self.k = nn.Linear(width, width)
        self.v = nn.Linear(width, width)

    def forward(self, x, valid_lens):
        scores = torch.bmm(self.q(x), self.k(x).transpose(1, 2)) / math.sqrt(self.width)
        mask = torch.zeros_like(scores, dtype=torch.bool)
        for b, n in enumerate(valid_lens):
            mask[b, :, int(n):] = True
        scores = scores.masked_fill(mask, -1e12)
        return torch.bmm(nn.functional.softmax(scores, dim=-1), self.v(x))
`;

const trainer = (level: string, extra = ''): string => `import torch
from apex import amp

from model import SelfAttention


class Trainer:
    def __init__(self, width, lr, multi_gpu, opt_level="O0"):
        self.model = SelfAttention(width).cuda()
        self.optim = torch.optim.Adam(self.model.parameters(), lr=lr)
        if multi_gpu:
            self.model, self.optim = amp.initialize(self.model, self.optim, opt_level=${level})
${extra}
    def step(self, x, valid_lens, target, multi_gpu):
        loss = (self.model(x, valid_lens) - target).pow(2).mean()
        self.optim.zero_grad()
        if multi_gpu:
            with amp.scale_loss(loss, self.optim) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()
        self.optim.step()
`;

describe('precscan11b: apex amp at opt_level "O0" runs in float32 (ATT007)', () => {
  it('is silent on the model when the importing trainer initialises apex amp at "O0"', async () => {
    const files = { 'model.py': MODEL, 'train.py': trainer('"O0"') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), []);
  });
  it('is silent on a single file that trains itself with apex amp at "O0"', async () => {
    const one = `${MODEL}\n\nfrom apex import amp\n\n\ndef setup(width, lr):\n    model = SelfAttention(width).cuda()\n    optim = torch.optim.Adam(model.parameters(), lr=lr)\n    return amp.initialize(model, optim, opt_level='O0')\n`;
    assert.deepEqual(await findingLines(one, 'ATT007'), []);
  });
  it('still reports the model when the trainer initialises apex amp at a mixed level ("O1")', async () => {
    const files = { 'model.py': MODEL, 'train.py': trainer('"O1"') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), [19]);
  });
  it('still reports the model when the level comes from elsewhere (`opt_level=args.opt_level`)', async () => {
    const files = { 'model.py': MODEL, 'train.py': trainer('self.level', '        self.level = level_from_args()\n') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), [19]);
  });
  it('still reports the model when an "O0" trainer also runs autocast in float16', async () => {
    const files = { 'model.py': MODEL, 'train.py': trainer('"O0"', '        self.ctx = torch.autocast("cuda", dtype=torch.float16)\n') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), [19]);
  });
});

// 2. ATT007, prose naming half precision among the dtypes the code handles: `# cast to fp32/fp16 then replace 1's with
//    -inf` above `tf.cast(mask, dtype=q.dtype) * LARGE_NEGATIVE` (Hugging Face's TF Longformer and LED, copied into an
//    inference engine's benchmark tree) says the cast follows whichever of the two dtypes the data has. Linted alone,
//    with no code showing half precision, that comment was the only evidence, and `-1e8` was reported as below
//    float16's range in "a file that runs in half precision". A list of dtypes with full precision among them
//    (`fp32/fp16`, `fp16 or fp32`, `fp32, fp16 and bf16`) is no evidence; one that names only half dtypes
//    (`fp16/bf16`), or prose that says the code runs in fp16, still is; so is code of an importing file.
const PROSE_MODEL = (comment: string): string => `import math
import torch
import torch.nn as nn

LARGE_NEGATIVE = -1e9


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.h)
        # ${comment}
        scores = scores.masked_fill(pad_mask[:, None, None, :], LARGE_NEGATIVE)
        return scores.softmax(-1) @ v
`;

describe('precscan11b: prose listing fp16 among the dtypes the code handles is no half precision (ATT007)', () => {
  it('is silent on a file whose only mention is `fp32/fp16` in a comment', async () => {
    assert.deepEqual(await findingLines(PROSE_MODEL("cast to fp32/fp16 then replace 1's with the fill"), 'ATT007'), []);
  });
  it('is silent on `works with fp16 or fp32` and `fp32, fp16 and bf16`', async () => {
    assert.deepEqual(await findingLines(PROSE_MODEL('works with fp16 or fp32 scores'), 'ATT007'), []);
    assert.deepEqual(await findingLines(PROSE_MODEL('the same for fp32, fp16 and bf16 scores'), 'ATT007'), []);
  });
  it('still reports a file whose comment says it runs in fp16', async () => {
    assert.deepEqual(await findingLines(PROSE_MODEL('the scores are fp16 here (we train with --fp16)'), 'ATT007'), [19]);
  });
  it('still reports a comment that lists half dtypes only (`fp16/bf16`)', async () => {
    assert.deepEqual(await findingLines(PROSE_MODEL('scores in fp16/bf16 after the cast'), 'ATT007'), [19]);
  });
  it('takes the precision from an importing trainer: reported under its autocast, silent in float32', async () => {
    const model = PROSE_MODEL("cast to fp32/fp16 then replace 1's with the fill");
    const train = (ctx: string): string =>
      `import torch\nfrom model import Attention\n\n\ndef step(x, pad):\n    model = Attention(64, 4).cuda()\n    with ${ctx}:\n        return model(x, pad)\n`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'train.py': train('torch.autocast("cuda")') }, 'model.py', 'ATT007'), [19]);
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'train.py': train('torch.no_grad()') }, 'model.py', 'ATT007'), []);
  });
});
