// Class learnt from the training set (test/lint-train/b, t8b-06): a -inf fill on scores whose key axis is not last.
// Paged/decode attention often lays its scores out (batch, keys, heads) (`einsum("bhd,bthd->bth")`) and softmaxes
// over dim=1; a padding mask over the cached positions, `~valid.unsqueeze(-1)`, then varies along -2, which there is
// the key axis: it hides keys, and no row of keys is emptied. The padding is judged against the axes the code states
// (the einsum's output, the softmax's dim), not the usual (..., queries, keys) layout. Small examples written fresh.
import { strict as assert } from 'node:assert';
import { linter } from './helpers';

const DECODE = `import math

import torch


def decode_step(q, keys, values, lengths):
    # q: (B, H, D); keys, values: (B, T, H, D); lengths: (B,)
    steps = torch.arange(keys.shape[1], device=q.device)
    valid = steps[None, :] < lengths[:, None]
    scores = torch.einsum("bhd,bthd->bth", q, keys) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~valid.unsqueeze(-1), float("-inf"))
    probs = torch.softmax(scores, dim=1)
    return torch.einsum("bth,bthd->bhd", probs, values)
`;

const KEYS_FIRST = `import math

import torch


def attend(q, k, v, lengths):
    # q, k, v: (B, L, D); lengths: (B,)
    valid = torch.arange(q.shape[1], device=q.device)[None, :] < lengths[:, None]
    scores = torch.einsum("bqd,bkd->bkq", q, k) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~valid.unsqueeze(1), float("-inf"))
    probs = torch.softmax(scores, dim=1)
    return torch.einsum("bkq,bkd->bqd", probs, v)
`;

async function att007(src: string): Promise<string[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT007')
    .map((f) => `${f.line}`);
}

describe('lint: -inf fills on scores whose key axis is not last (ATT007)', () => {
  it('(batch, keys, heads) scores softmaxed over dim=1, padding of the keys unsqueezed at -1: silent', async () => {
    assert.deepEqual(await att007(DECODE), []);
  });
  it('the same padding with the softmax given as a negative dim (dim=-2) is silent too', async () => {
    assert.deepEqual(await att007(DECODE.replace('dim=1)', 'dim=-2)')), []);
  });
  it('(batch, keys, queries) scores whose padding varies along the stated query axis (-1) are reported', async () => {
    assert.deepEqual(await att007(KEYS_FIRST), ['10']);
  });
  it('fixed: the same layout with a finite fill is silent', async () => {
    assert.deepEqual(await att007(KEYS_FIRST.replace('float("-inf")', 'torch.finfo(scores.dtype).min')), []);
  });
  it('the usual (batch, queries, keys) layout with query padding (unsqueeze(-1)) is still reported', async () => {
    const std = KEYS_FIRST.replace('"bqd,bkd->bkq"', '"bqd,bkd->bqk"')
      .replace('~valid.unsqueeze(1)', '~valid.unsqueeze(-1)')
      .replace('dim=1)', 'dim=-1)')
      .replace('"bkq,bkd->bqd"', '"bqk,bkd->bqd"');
    assert.deepEqual(await att007(std), ['10']);
  });
});
