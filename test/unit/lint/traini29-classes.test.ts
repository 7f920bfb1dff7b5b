// Session 29, training batch i: the classes behind its false findings and misses, as unit tests.
//
// ATT002, class "a left-padding mask written right-aligned per example": `real = zeros(B, W, dtype=bool)` and, in a
// loop over the batch, `real[i, W - len(p):] = True` (the example's tokens written right-aligned, as its ids are)
// marks the tokens, so `real` keeps and `~real` is True at the padding; `real[i, :W - len(p)] = True` marks the
// padding. A bound counted back by something other than a sequence's length (`L - pad_len`, `-n`) may count the
// tokens or the padding, so no polarity is read from it.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const leftPad = (slice: string, negate: boolean): string => `import torch


def left_pad(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    marked = torch.zeros((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        marked[i, ${slice}] = True
    pad = ${negate ? '~marked' : 'marked'}
    return ids, pad


def attend(scores, pad):
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)


def run(q, k, prompts, pad_id):
    ids, pad = left_pad(prompts, pad_id)
    return attend(q @ k.transpose(-2, -1), pad)
`;

describe('lint: a left-padding mask written right-aligned per example (ATT002)', () => {
  it('1s on the right-aligned tokens, negated, fill the padding: silent', async () => {
    assert.deepEqual(await findingLines(leftPad('width - len(p):', true), 'ATT002'), []);
  });
  it('1s on the right-aligned tokens, not negated, fill the tokens: reported', async () => {
    assert.deepEqual(await findingLines(leftPad('width - len(p):', false), 'ATT002'), [17]);
  });
  it('1s before the right-aligned tokens mark the padding: silent as is, reported negated', async () => {
    assert.deepEqual(await findingLines(leftPad(':width - len(p)', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad(':width - len(p)', true), 'ATT002'), [17]);
  });
  it('-len(p): counts back by the length too', async () => {
    assert.deepEqual(await findingLines(leftPad('-len(p):', true), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad('-len(p):', false), 'ATT002'), [17]);
  });
  it('right padding, 1s past each length (`len(p):`), still marks the padding', async () => {
    assert.deepEqual(await findingLines(leftPad('len(p):', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad('len(p):', true), 'ATT002'), [17]);
  });
  it('a bound minus a count that may be padding (`width - n_pad:`) says nothing either way', async () => {
    const src = leftPad('width - n_pad:', true).replace('for i, p in enumerate(prompts):', 'for i, p in enumerate(prompts):\n        n_pad = width - len(p)');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('cross-file: the left-padded pad mask built in a batch module, applied by torch.where in another', async () => {
    const batch = `import torch


def left_pad(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    real = torch.zeros((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        real[i, width - len(p):] = True
    return ids, ~real, real
`;
    const use = (which: string): string => `import torch

from batch import left_pad


def attend(q, k, v, prompts, pad_id):
    ids, pad_mask, real = left_pad(prompts, pad_id)
    scores = q @ k.transpose(-2, -1)
    floor = torch.finfo(scores.dtype).min
    scores = torch.where(${which}[:, None, None, :], torch.tensor(floor), scores)
    return scores.softmax(dim=-1) @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('pad_mask') }, 'attn.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('real') }, 'attn.py', 'ATT002'), [10]);
  });
});
