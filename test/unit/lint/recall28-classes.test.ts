// Classes of real bugs the linter missed, seen by the session 28 precision scan (precscan8b,
// test/lint-scan/results/2026-12-04-scan-precscan8b.md), written fresh with their correct forms (silent) and, where the
// evidence can sit in another file, a cross-file pair.
//  1. ATT002: a keep mask made additive with the subtraction the wrong way round, `(keep - 1.0) * -10000.0` (+10000 at
//     the padding, 0 at the kept keys): `keep - 1` is the flipped mask negated, so the sign of the constant decides.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const BERT = `import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, bias):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.heads)
        scores = scores + bias
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C)


class Encoder(nn.Module):
    def __init__(self, vocab, dim, heads, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim, heads)

    def forward(self, input_ids):
        keep = (input_ids != self.pad_id).long()
        extended = keep[:, None, None, :].to(torch.float32)
        extended = EXTENDED
        return self.attn(self.embed(input_ids), extended)
`;

const bert = (form: string): string => BERT.replace('EXTENDED', form);

// [the additive mask built from `extended` (1 at tokens, 0 at padding), the line of the ATT002 finding or undefined]
const SIGN_FORMS: readonly (readonly [string, number | undefined])[] = [
  // Correct: 0 at the tokens, a large negative number at the padding.
  ['(1.0 - extended) * -10000.0', undefined],
  ['(extended - 1.0) * 10000.0', undefined],
  ['(1 - extended) * torch.finfo(torch.float32).min', undefined],
  ['(extended - 1) * torch.finfo(torch.float32).max', undefined],
  ['(extended - 1.0) * 1e9', undefined],
  ['10000.0 * (extended - 1.0)', undefined],
  // Buggy: the subtraction the wrong way round for the sign of the constant, +10000 (or more) at the padding.
  ['(extended - 1.0) * -10000.0', 30],
  ['(extended - 1) * torch.finfo(torch.float32).min', 30],
  ['-1e9 * (extended - 1.0)', 30],
];

describe('lint: a keep mask made additive with the sign carried through `keep - 1` (ATT002)', () => {
  for (const [form, line] of SIGN_FORMS) {
    it(`${line === undefined ? 'silent' : `reported at ${line}`}: ${form}`, async () => {
      assert.deepEqual(await findingLines(bert(form), 'ATT002'), line === undefined ? [] : [line]);
    });
  }
  it('a mask read as nonzero after `- 1` (`masked_fill(keep - 1, -inf)`: fills the padding) stays silent', async () => {
    const src = BERT.replace('scores = scores + bias', 'scores = scores.masked_fill(bias != 0, float("-inf"))').replace('EXTENDED', 'extended - 1');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('a parameter known only by its name (`attention_mask`) is not evidence: silent', async () => {
    const src = `import torch


def extended_bias(attention_mask):
    return (attention_mask[:, None, None, :].float() - 1.0) * -10000.0
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
});

const HELPER = `import torch


def extended_bias(attention_mask, dtype):
    return (attention_mask[:, None, None, :].to(dtype) - 1.0) * SIGN
`;

const MODEL = `import math
import torch
from utils.masks import extended_bias

PAD_ID = 0


def attend(input_ids, q, k, v):
    bias = extended_bias((input_ids != PAD_ID).long(), q.dtype)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return (scores + bias).softmax(dim=-1) @ v
`;

describe('lint: cross-file, the keep mask built in the model and made additive by a helper of another file (ATT002)', () => {
  it('buggy helper, `(attention_mask - 1.0) * -10000.0`: reported in the helper', async () => {
    const files = { 'utils/masks.py': HELPER.replace('SIGN', '-10000.0'), 'models/model.py': MODEL };
    assert.deepEqual(await workspaceFindingLines(files, 'utils/masks.py', 'ATT002'), [5]);
  });
  it('correct helper, `(attention_mask - 1.0) * 10000.0`: silent', async () => {
    const files = { 'utils/masks.py': HELPER.replace('SIGN', '10000.0'), 'models/model.py': MODEL };
    assert.deepEqual(await workspaceFindingLines(files, 'utils/masks.py', 'ATT002'), []);
  });
});
