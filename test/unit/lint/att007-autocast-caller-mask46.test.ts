// Session 46, eng-s46a: ATT007, class "an integer token mask filled under autocast" (ledger s45, rows 73-74: GLIP's
// fusion blocks, `attention_mask_l.unsqueeze(1).unsqueeze(1).expand(...)` then `.masked_fill(m == 0, -9e15)`, in a
// package whose only half precision is `torch.cuda.amp.autocast` and `GradScaler`).
//
// Autocast runs the ops it lists (products, linear layers, convolutions) in float16 and leaves every other tensor in
// the dtype it was made in: the mask a caller hands the attention (a tokenizer's integer mask, a float32 one) stays so,
// and masked_fill of -9e15 into it raises nothing. So a fill whose target is, through shape-only ops, a parameter of
// the fill's function (not the scores, nor a tensor made like them) is not judged as float16 when the only float16 the
// code shows is autocast's (`autocast(...)` calls, `GradScaler`). `.half()`, a float16 dtype or an fp16 flag
// (fairseq's `--fp16`) may run whole models and their inputs in float16: still reported, as a fill of the scores
// under autocast is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const fusion = (masking: string): string => `import torch
import torch.nn as nn


class TextToImageAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

    def forward(self, image_feats, text_feats, text_mask=None):
        bsz, tgt_len, dim = image_feats.size()
        src_len = text_feats.size(1)
        q = self.q_proj(image_feats).view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(text_feats).view(bsz, src_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(text_feats).view(bsz, src_len, self.num_heads, self.head_dim).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        if text_mask is not None:
${masking}
        weights = scores.softmax(dim=-1)
        return torch.matmul(weights, v).transpose(1, 2).reshape(bsz, tgt_len, dim)
`;

const CALLERS_MASK = `            bias = text_mask.unsqueeze(1).unsqueeze(1)
            bias = bias.expand(bsz, 1, tgt_len, src_len)
            bias = bias.masked_fill(bias == 0, -9e15)
            scores = scores + bias`;
const SCORES_FILLED = `            scores = scores.masked_fill(text_mask[:, None, None, :] == 0, -9e15)`;
const LIKE_SCORES = `            bias = torch.zeros_like(scores) + text_mask[:, None, None, :]
            bias = bias.masked_fill(bias == 0, -9e15)
            scores = scores + bias`;

const trainStep = (precision: string): string => `

def train_step(model, optimizer, scaler, images, text_feats, text_mask):
${precision}
        loss = model(images, text_feats, text_mask).pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
`;
const AUTOCAST = '    with torch.cuda.amp.autocast():';
const HALF = '    model.half()\n    if True:';

const trainer = `import torch
from torch.cuda.amp import GradScaler, autocast


def train(model, loader, optimizer):
    scaler = GradScaler()
    for images, tokens, token_mask in loader:
        with autocast():
            loss = model(images, tokens, token_mask)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
`;

describe("ATT007: a caller's mask filled under autocast (session 46)", () => {
  it("is silent on a fill of the caller's mask when the file's only float16 is autocast", async () => {
    assert.deepEqual(await findingLines(fusion(CALLERS_MASK) + trainStep(AUTOCAST), 'ATT007'), []);
    // The scaler spelled through its module (`torch.cuda.amp.GradScaler()`): `amp.` is no apex amp here.
    const scaler = trainStep(AUTOCAST)
      .replace('def train_step(model, optimizer, scaler,', 'def train_step(model, optimizer,')
      .replace('        loss =', '        scaler = torch.cuda.amp.GradScaler()\n        loss =');
    assert.deepEqual(await findingLines(fusion(CALLERS_MASK) + scaler, 'ATT007'), []);
  });

  it('still reports the fill when .half() runs the model in float16', async () => {
    assert.deepEqual(await findingLines(fusion(CALLERS_MASK) + trainStep(HALF), 'ATT007'), [25]);
  });

  it('still reports under autocast a fill of the scores, and of a tensor made like them', async () => {
    assert.deepEqual(await findingLines(fusion(SCORES_FILLED) + trainStep(AUTOCAST), 'ATT007'), [23]);
    assert.deepEqual(await findingLines(fusion(LIKE_SCORES) + trainStep(AUTOCAST), 'ATT007'), [24]);
  });

  it('still reports under autocast a helper that fills the tensor it is handed (the scores), not a mask', async () => {
    const src = `import torch
import torch.nn as nn


def replace_masked_values(tensor, mask, replace_with):
    return tensor.masked_fill(~mask, replace_with)


class PassageAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, passage, question, question_mask):
        similarity = torch.bmm(self.proj(passage), question.transpose(1, 2))
        masked = replace_masked_values(similarity, question_mask.unsqueeze(1), -1e7)
        weights = torch.softmax(masked, dim=-1)
        return torch.bmm(weights, question)
${trainStep(AUTOCAST).replace(/images, text_feats, text_mask/g, 'passage, question, question_mask')}`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [6]);
  });

  it('cross-file: the package trainer runs the model under autocast and GradScaler only', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/train.py': trainer, 'pkg/fusion.py': fusion(CALLERS_MASK) };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/fusion.py', 'ATT007'), []);
    // The same trainer converting the model with .half(): float16 whatever autocast does.
    const half = { ...files, 'pkg/train.py': trainer.replace('    scaler = GradScaler()\n', '    model.half()\n    scaler = GradScaler()\n') };
    assert.deepEqual(await workspaceFindingLines(half, 'pkg/fusion.py', 'ATT007'), [25]);
    // A fill of the scores in the same package is still judged as float16.
    const scores = { ...files, 'pkg/fusion.py': fusion(SCORES_FILLED) };
    assert.deepEqual(await workspaceFindingLines(scores, 'pkg/fusion.py', 'ATT007'), [23]);
  });
});
