// A shape comment's axis labels against the code's own evidence (ATT001). The comment may decide the softmax axis
// only where nothing in the code does: when the code shows the key axis (the keys are the right operand of the
// product, so the key axis is the last) or a product with the values sums the weights over the softmax's axis, a
// comment calling that axis the batch is outranked. Where the code says nothing, a comment alone decided ((B, S)
// energies normalised with dim=0) until session 48; it no longer does. A batch axis the code itself shapes (a time-major LSTM) is
// not a comment and is still reported. Each with its fixed form.
import { strict as assert } from 'node:assert';
import { trailingCommentShape } from '../../../src/lint/analysis/comments';
import { linter } from './helpers';

async function att001(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT001')
    .map((f) => f.line);
}

const scaled = (comment: string, dim: string) => `import math

import torch
import torch.nn.functional as F


def attend(q, k, v):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))  # ${comment}
    weights = F.softmax(scores, dim=${dim})
    return torch.matmul(weights, v)
`;

describe("shape comments' axis labels give way to the code's layout (ATT001)", () => {
  it('a comment calling the last axis the batch, against keys on the right (the key axis is the last): silent', async () => {
    assert.deepEqual(await att001(scaled('(T, S, B)', '-1')), []);
  });

  it('the same comment with a softmax over the axis the comment calls the keys: reported (the code says -1)', async () => {
    assert.deepEqual(await att001(scaled('(T, S, B)', '1')), [9]);
  });

  it('a comment that agrees with the code, softmax over the batch: reported', async () => {
    assert.deepEqual(await att001(scaled('(B, T, S)', '0')), [9]);
  });

  it('fixed: softmax over the last axis, silent', async () => {
    assert.deepEqual(await att001(scaled('(B, T, S)', '-1')), []);
  });

  // Additive attention pooling over time-major encoder outputs (the einsum's 'sbh' says so); the energies' comment
  // is stale (batch-first). The einsum with the values sums the weights over axis 0, the axis the softmax normalises.
  const pooling = (comment: string, dim: string, spec: string) => `import torch
import torch.nn.functional as F


def pool(hidden, score):
    energy = score(hidden).squeeze(-1)  # ${comment}
    alpha = F.softmax(energy, dim=${dim})
    return torch.einsum("${spec}", alpha, hidden)
`;

  it('a stale (B, S) comment on energies an einsum with the values sums over axis 0, softmax dim=0: the code decides, silent', async () => {
    assert.deepEqual(await att001(pooling('(B, S)', '0', 'sb,sbh->bh')), []);
  });

  it('the (B, S) comment and an einsum summing over axis 1, softmax dim=0: reported', async () => {
    assert.deepEqual(await att001(pooling('(B, S)', '0', 'bs,bsh->bh')), [7]);
  });

  it('fixed: softmax dim=1 with the einsum summing over axis 1, silent', async () => {
    assert.deepEqual(await att001(pooling('(B, S)', '1', 'bs,bsh->bh')), []);
  });

  // Session 48 (eng-s48c): a comment alone no longer makes an axis the batch (it decided no true finding of the
  // readable sets or the public ledgers): att001-comment-batch48.test.ts.
  it('the code says nothing (no product with the values): the (B, S) comment alone decides nothing, silent', async () => {
    const src = `import torch
import torch.nn.functional as F


def attention_weights(enc, score):
    energy = score(enc).squeeze(-1)  # (B, S)
    return F.softmax(energy, dim=0)
`;
    assert.deepEqual(await att001(src), []);
  });

  it('a batch axis the code shapes (time-major nn.LSTM), not a comment: still reported', async () => {
    const src = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.rnn = nn.LSTM(d, h)
        self.score = nn.Linear(h, 1)

    def forward(self, x):
        out, _ = self.rnn(x)
        energy = self.score(out).squeeze(-1)
        alpha = F.softmax(energy, dim=1)
        return (alpha.unsqueeze(-1) * out).sum(1)
`;
    assert.deepEqual(await att001(src), [15]);
  });

  it('a comment naming the batch (or the heads) twice names no axis unambiguously: its rank stands, not those labels', () => {
    const labels = (c: string) => trailingCommentShape(c)?.map((a) => a.label ?? '-');
    assert.deepEqual(labels('# (B, T, S)'), ['batch', 'seq', 'seq']);
    assert.deepEqual(labels('# (b, bs, s)'), ['-', '-', 'seq']);
    assert.deepEqual(labels('# (B, H, T, nh)'), ['batch', '-', 'seq', '-']);
  });

  it('a softmax over an axis an ambiguous comment calls the batch: silent', async () => {
    const src = `import torch
import torch.nn.functional as F


def attention_weights(enc, score):
    energy = score(enc).squeeze(-1)  # (bs, b)
    return F.softmax(energy, dim=0)
`;
    assert.deepEqual(await att001(src), []);
  });
});
