// Classes of correct code found by the false-positive scan of session 28 on small LLM, BERT and seq2seq projects
// (test/lint-scan/results/2026-12-04-scan-precscan8b.md), written fresh, each with its buggy form, which must still be
// reported; and the mask forms of those projects (keep masks from the token ids turned additive, key padding masks,
// NumPy triangles) written the several ways such code writes them, so that a change to the mask rules that misreads
// one of them shows here.
//  1. ATT001: a classifier head whose number of classes is a constructor parameter defaulting to 1 (a placeholder)
//     is not known to have one class; the file building it with the real count, here or in another file, says so.
//  2. ATT002: the keep mask `ids != PAD` turned additive, passed as a key padding mask or to SDPA, correct and inverted.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ENCODER = `import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, dim, predict_language=0, n_languages=1):
        super().__init__()
        self.norm_cls = nn.LayerNorm(dim)
        self.linear_cls = nn.Linear(dim, n_languages)

    def forward(self, x):
        logits = self.linear_cls(self.norm_cls(x))
        return torch.softmax(logits, dim=-1)
`;

const RECOGNIZER = `import torch.nn as nn
from models.encoder import Encoder


class Recognizer(nn.Module):
    def __init__(self, dim, languages):
        super().__init__()
        self.encoder = Encoder(dim, predict_language=2, n_languages=len(languages))

    def forward(self, x):
        return self.encoder(x)
`;

describe('lint: a class count that is 1 only by a parameter default (ATT001)', () => {
  it('the encoder alone, no call in view: silent', async () => {
    assert.deepEqual(await findingLines(ENCODER, 'ATT001'), []);
  });
  it('cross-file: models/recognizer.py builds it with the number of languages: silent', async () => {
    const files = { 'models/encoder.py': ENCODER, 'models/recognizer.py': RECOGNIZER };
    assert.deepEqual(await workspaceFindingLines(files, 'models/encoder.py', 'ATT001'), []);
  });
  it('buggy: the head written with one output unit is reported', async () => {
    const src = ENCODER.replace('nn.Linear(dim, n_languages)', 'nn.Linear(dim, 1)');
    assert.deepEqual(await findingLines(src, 'ATT001'), [13]);
  });
});

const HEAD = `import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


def attend(q, k, v, mask):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask, -1e9)
    return torch.matmul(F.softmax(scores, dim=-1), v)


def attend_add(q, k, v, bias):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    return torch.matmul(F.softmax(scores + bias, dim=-1), v)


def run(q, k, v, ids):
    keep = (ids != PAD).long()
`;

/** The module above with `body` (statements separated by `;; `) as the rest of `run`; the body starts at line 23. */
function masked(body: string): string {
  return (
    HEAD +
    body
      .split(';; ')
      .map((s) => `    ${s}\n`)
      .join('')
  );
}

const MHA = 'mha = nn.MultiheadAttention(64, 4, batch_first=True);; return mha(q, k, v, key_padding_mask=';

// [body, line of the ATT002 finding or undefined for none]
const MASK_FORMS: readonly (readonly [string, number | undefined])[] = [
  // Correct: the keep mask made additive, 0 at tokens and a large negative number at padding.
  ['bias = (1.0 - keep[:, None, None, :].to(q.dtype)) * torch.finfo(q.dtype).min;; return attend_add(q, k, v, bias)', undefined],
  ['bias = (~keep.bool())[:, None, None, :].float() * -1e9;; return attend_add(q, k, v, bias)', undefined],
  ['bias = keep.logical_not()[:, None, None, :] * -1e9;; return attend_add(q, k, v, bias)', undefined],
  ['bias = keep.eq(0).float().unsqueeze(1).unsqueeze(2) * -10000.0;; return attend_add(q, k, v, bias)', undefined],
  ['bias = torch.where(keep[:, None, None, :].bool(), 0.0, float("-inf"));; return attend_add(q, k, v, bias)', undefined],
  ['bias = (1 - keep.type_as(q))[:, None, None, :] * -10000.0;; return attend_add(q, k, v, bias)', undefined],
  ['bias = (keep[:, None, None, :] - 1.0) * 10000.0;; return attend_add(q, k, v, bias)', undefined],
  ['bias = (1.0 - keep[:, None, None, :]) * -10000.0;; return attend_add(q, k, v, bias)', undefined],
  ['m = keep[:, None, None, :];; bias = m.float().masked_fill(m == 0, float("-inf")).masked_fill(m == 1, 0.0);; return attend_add(q, k, v, bias)', undefined],
  // Correct: the mask filled where True is the padding, or the NumPy triangle above the diagonal.
  [
    'sub = torch.from_numpy(np.triu(np.ones((1, ids.size(1), ids.size(1))), k=1)).byte();; pad = ids.eq(PAD).unsqueeze(1).byte();; return attend(q, k, v, torch.gt(pad + sub, 0))',
    undefined,
  ],
  // Correct: SDPA's boolean attn_mask is True where attention is allowed; key_padding_mask True at padding.
  ['return F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :].bool())', undefined],
  [`${MHA}keep == 0)[0]`, undefined],
  [`${MHA}~keep.bool())[0]`, undefined],
  [`${MHA}keep.logical_not())[0]`, undefined],
  [`${MHA}(1 - keep).bool())[0]`, undefined],
  [`${MHA}keep.eq(0))[0]`, undefined],
  // Buggy: the keep side filled or made the large negative number.
  ['bias = keep[:, None, None, :] * -10000.0;; return attend_add(q, k, v, bias)', 23],
  ['bias = keep.bool()[:, None, None, :].float() * -1e9;; return attend_add(q, k, v, bias)', 23],
  ['bias = torch.where(keep[:, None, None, :].bool(), float("-inf"), 0.0);; return attend_add(q, k, v, bias)', 23],
  ['sub = torch.from_numpy(np.triu(np.ones((ids.size(1), ids.size(1))), k=1).astype("uint8")) == 0;; return attend(q, k, v, sub)', 12],
  ['return F.scaled_dot_product_attention(q, k, v, attn_mask=~keep[:, None, None, :].bool())', 23],
  [`${MHA}keep.bool())[0]`, 24],
  [`${MHA}keep > 0)[0]`, 24],
];

describe('lint: keep masks from the token ids, correct and inverted (ATT002)', () => {
  for (const [body, line] of MASK_FORMS) {
    it(`${line === undefined ? 'silent' : `reported at ${line}`}: ${body.replace(/;; /g, '; ')}`, async () => {
      assert.deepEqual(await findingLines(masked(body), 'ATT002'), line === undefined ? [] : [line]);
    });
  }
});
